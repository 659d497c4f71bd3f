// The first run, as the seed app: the privacy terms dialog (accept, or leave), the guide pages (swipe,
// skip), then on each start the splash ad (`GET /v1/ads?position=0`) with a skip countdown. The app behind
// renders meanwhile; these are layers over it.
import * as store from "./store.js";
import { terms, ads } from "./api.js";
import { t } from "./i18n.js";
import { esc } from "./ui.js";
import { media } from "./media.js";
import { socialStyles } from "./router.js";
import "./i18n-social.js";

const app = () => new URL("../icons/icon.svg", import.meta.url).href;

/** Asks for the current terms when this device has not accepted them; resolves once they are accepted. */
async function askTerms() {
  const accepted = store.load("cm.terms", null);
  if (accepted) return;
  let status;
  try {
    status = await terms.current();
  } catch {
    return; // Offline or an old server: ask next time.
  }
  const documents = status?.terms ?? [];
  if (!documents.length || status.accepted === true) {
    store.persist("cm.terms", documents.map((d) => d.id));
    return;
  }
  await new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "modal terms-dialog";
    dialog.setAttribute("aria-labelledby", "terms-title");
    const show = () => {
      dialog.innerHTML = `<div class="modal-body"><h2 class="modal-title" id="terms-title">${esc(t("termsTitle"))}</h2>
        <p class="modal-text">${esc(t("termsIntro"))}</p>
        <div class="terms-docs">${documents.map((d) => `<details class="terms-doc"><summary>《${esc(d.title)}》 v${d.version}</summary>
          ${d.text.split(/\n\s*\n/).map((p) => `<p>${esc(p)}</p>`).join("")}</details>`).join("")}</div>
        <button type="button" class="pill-btn primary wide terms-accept" autofocus>${esc(t("agree"))}</button>
        <button type="button" class="text-btn terms-decline">${esc(t("disagree"))}</button></div>`;
    };
    show();
    dialog.addEventListener("cancel", (e) => e.preventDefault());
    dialog.addEventListener("click", async (event) => {
      if (event.target.closest(".terms-accept")) {
        const ids = documents.map((d) => d.id);
        store.persist("cm.terms", ids);
        if (store.get().user) terms.accept({}, { termsIds: ids }).catch(() => {});
        dialog.close();
        dialog.remove();
        resolve();
      } else if (event.target.closest(".terms-decline")) {
        dialog.innerHTML = `<div class="modal-body terms-left"><img src="${esc(app())}" alt="" width="56" height="56">
          <p class="modal-text">${esc(t("leftApp"))}</p><button type="button" class="pill-btn primary terms-reopen">${esc(t("reopen"))}</button></div>`;
      } else if (event.target.closest(".terms-reopen")) {
        show();
      }
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Records the acceptance on the server for someone who accepted on this device before signing in. */
export function acceptAfterSignIn() {
  const ids = store.load("cm.terms", null);
  if (ids?.length && store.get().user) terms.accept({}, { termsIds: ids }).catch(() => {});
}

function guide() {
  if (store.load("cm.guided", false)) return Promise.resolve();
  const pages = [["guide1", "guide1b", "disc"], ["guide2", "guide2b", "lyrics"], ["guide3", "guide3b", "people"]];
  return new Promise((resolve) => {
    const layer = document.createElement("div");
    layer.className = "guide";
    layer.setAttribute("role", "dialog");
    layer.setAttribute("aria-modal", "true");
    layer.setAttribute("aria-label", t("appName"));
    layer.innerHTML = `<button type="button" class="guide-skip">${esc(t("skipPlain"))}</button>
      <div class="guide-track">${pages.map(([title, sub, art], i) => `<section class="guide-page g${i}">
        <div class="guide-art"><span class="guide-disc"></span><img src="${esc(app())}" alt="" width="96" height="96"></div>
        <h2 class="guide-title">${esc(t(title))}</h2><p class="guide-sub">${esc(t(sub))}</p>
        ${i === pages.length - 1 ? `<button type="button" class="pill-btn primary guide-start">${esc(t("start"))}</button>` : ""}</section>`).join("")}</div>
      <div class="guide-dots">${pages.map((_, i) => `<span class="dot${i ? "" : " on"}"></span>`).join("")}</div>`;
    const done = () => {
      store.persist("cm.guided", true);
      layer.remove();
      resolve();
    };
    const track = layer.querySelector(".guide-track");
    track.addEventListener("scroll", () => {
      const i = Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
      layer.querySelectorAll(".guide-dots .dot").forEach((d, j) => d.classList.toggle("on", i === j));
    }, { passive: true });
    layer.addEventListener("click", (e) => { if (e.target.closest(".guide-skip, .guide-start")) done(); });
    layer.addEventListener("keydown", (e) => {
      if (e.key === "Escape") done();
      if (e.key === "ArrowRight") track.scrollBy({ left: track.clientWidth });
      if (e.key === "ArrowLeft") track.scrollBy({ left: -track.clientWidth });
    });
    document.body.append(layer);
    layer.querySelector(".guide-skip").focus();
  });
}

/** The splash ad: its picture (or muted video) over the app with "Skip 3"; tapping it opens its link. */
async function splash() {
  let ad;
  try {
    ad = (await ads.list({ position: 0, size: 1 }))?.data?.[0];
  } catch {
    return;
  }
  if (!ad) return;
  const video = ad.style === 10 && ad.uri;
  const layer = document.createElement("div");
  layer.className = "splash-ad";
  layer.setAttribute("role", "dialog");
  layer.setAttribute("aria-label", ad.title);
  layer.innerHTML = `<a class="splash-media"${ad.link ? ` href="${esc(ad.link)}" data-external` : ""} aria-label="${esc(ad.title)}">
      ${video ? `<video src="${esc(media(ad.uri))}" poster="${esc(media(ad.icon))}" muted autoplay playsinline></video>` : `<img src="${esc(media(ad.icon))}" alt="${esc(ad.title)}">`}</a>
    <div class="splash-foot"><img src="${esc(app())}" alt="" width="36" height="36"><span>${esc(t("appName"))}</span></div>
    <button type="button" class="splash-skip"></button>`;
  document.body.append(layer);
  const skip = layer.querySelector(".splash-skip");
  let left = 3;
  const tick = () => { skip.textContent = t("skipAd", { s: left }); };
  tick();
  return new Promise((resolve) => {
    const close = () => {
      clearInterval(timer);
      layer.classList.add("gone");
      setTimeout(() => layer.remove(), 250);
      resolve();
    };
    const timer = setInterval(() => {
      left -= 1;
      if (left <= 0) close();
      else tick();
    }, 1000);
    skip.addEventListener("click", close);
    layer.querySelector(".splash-media").addEventListener("click", (e) => {
      if (!ad.link) { e.preventDefault(); return; }
      if (/^https?:/.test(ad.link)) { e.preventDefault(); open(ad.link, "_blank", "noopener"); }
      close();
    });
  });
}

/** Terms, then (first run) the guide, then the splash ad. */
export async function firstRun() {
  const first = !store.load("cm.guided", false);
  await socialStyles();
  await askTerms();
  if (first) await guide();
  else await splash();
}
