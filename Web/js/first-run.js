// The first run, as the seed app: the privacy terms dialog (accept, or leave), the guide pages (swipe,
// skip), then on each start the splash ad (`GET /v1/ads?position=0`) with a skip countdown. The app behind
// renders meanwhile; these are layers over it.
import * as store from "./store.js";
import { terms, ads } from "./api.js";
import { t } from "./i18n.js";
import { setHTML, html, safeLink } from "./ui.js";
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
      setHTML(dialog, html`<div class="modal-body"><h2 class="modal-title" id="terms-title">${t("termsTitle")}</h2>
        <p class="modal-text">${t("termsIntro")}</p>
        <div class="terms-docs">${documents.map((d) => html`<details class="terms-doc"><summary>《${d.title}》 v${d.version}</summary>
          ${d.text.split(/\n\s*\n/).map((p) => html`<p>${p}</p>`)}</details>`)}</div>
        <button type="button" class="pill-btn primary wide terms-accept" autofocus>${t("agree")}</button>
        <button type="button" class="text-btn terms-decline">${t("disagree")}</button></div>`);
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
        setHTML(dialog, html`<div class="modal-body terms-left"><img src="${app()}" alt="" width="56" height="56">
          <p class="modal-text">${t("leftApp")}</p><button type="button" class="pill-btn primary terms-reopen">${t("reopen")}</button></div>`);
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
    setHTML(layer, html`<button type="button" class="guide-skip">${t("skipPlain")}</button>
      <div class="guide-track">${pages.map(([title, sub, art], i) => html`<section class="guide-page g${i}">
        <div class="guide-art"><span class="guide-disc"></span><img src="${app()}" alt="" width="96" height="96"></div>
        <h2 class="guide-title">${t(title)}</h2><p class="guide-sub">${t(sub)}</p>
        ${i === pages.length - 1 ? html`<button type="button" class="pill-btn primary guide-start">${t("start")}</button>` : ""}</section>`)}</div>
      <div class="guide-dots">${pages.map((_, i) => html`<span class="dot${i ? "" : " on"}"></span>`)}</div>`);
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

const SPLASH_SHOWN = "cm.splashShown";

/** Whether this start may show the splash ad: a cold start (not a reload of this tab, which keeps its
 * sessionStorage), opened at the home (never a deep link), online, and not sooner than the ad's own
 * `frequency` seconds (when the ad has one) after it last showed on this device. */
function splashAllowed() {
  if (location.pathname !== "/" || !navigator.onLine) return false;
  try {
    if (sessionStorage.getItem(SPLASH_SHOWN)) return false;
    sessionStorage.setItem(SPLASH_SHOWN, "1");
  } catch {
    return false;
  }
  return true;
}

/** The splash ad: its picture (or muted video) over the app with "Skip 3"; tapping it opens its link. */
async function splash() {
  if (!splashAllowed()) return;
  let ad;
  try {
    ad = (await ads.list({ position: 0, size: 1 }))?.data?.[0];
  } catch {
    return;
  }
  if (!ad) return;
  const last = store.load(`cm.splash.${ad.id}`, 0);
  if (ad.frequency && Date.now() - last < ad.frequency * 1000) return;
  store.persist(`cm.splash.${ad.id}`, Date.now());
  const link = safeLink(ad.link);
  const video = ad.style === 10 && ad.uri;
  const layer = document.createElement("div");
  layer.className = "splash-ad";
  layer.setAttribute("role", "dialog");
  layer.setAttribute("aria-label", ad.title);
  setHTML(layer, html`<a class="splash-media" ${link ? html`href="${link}" data-external` : ""} aria-label="${ad.title}">
      ${video ? html`<video src="${media(ad.uri)}" poster="${media(ad.icon)}" muted autoplay playsinline></video>` : html`<img src="${media(ad.icon)}" alt="${ad.title}">`}</a>
    <div class="splash-foot"><img src="${app()}" alt="" width="36" height="36"><span>${t("appName")}</span></div>
    <button type="button" class="splash-skip"></button>`);
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
      if (!link) { e.preventDefault(); return; }
      if (/^https?:/.test(link)) { e.preventDefault(); open(link, "_blank", "noopener"); }
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
