// Posting a moment: text with @mentions and #topics#, up to nine pictures (resized in the browser, each
// uploaded with its own progress), a place typed or picked from names near the browser's position, and a
// podcast episode shared from its page (`?episode=<id>`).
import { feeds, podcasts } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, errorBlock } from "../ui.js";
import { composer } from "../composer.js";
import { resizePicture, uploadPicture, PICTURE_TYPES } from "../social.js";
import { episodeShare } from "./moments.js";
import "../i18n-social.js";

export async function mount(root, { query } = {}) {
  const episodeId = (query ?? new URLSearchParams(location.search)).get?.("episode") || null;
  const here = episodeId ? `/moments/new?episode=${encodeURIComponent(episodeId)}` : "/moments/new";
  if (!store.get().user) { navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true }); return; }
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("newMoment")}</h1></header>
    <div class="post-page">
      <div class="post-composer"></div>
      ${episodeId ? html`<div class="post-share" aria-label="${t("sharingEpisode")}"></div>` : ""}
      <ul class="post-pics"><li><label class="post-add" aria-label="${t("addPicture")}">${icon("plus")}
        <input class="post-file" type="file" accept="${PICTURE_TYPES.join(",")}" multiple hidden></label></li></ul>
      <p class="post-error form-error" role="alert"></p>
      <label class="post-place">${icon("place")}<input class="text-input place-input" name="place" maxlength="60" placeholder="${t("placePlaceholder")}" list="place-names" autocomplete="off"></label>
      <datalist id="place-names"></datalist>
    </div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/moments"));
  const pics = []; // { file, url, state: "resizing"|"uploading"|"done"|"failed", progress, stored, el }
  const list = root.querySelector(".post-pics");
  const error = root.querySelector(".post-error");
  const addTile = list.querySelector("li");
  let coords = null;
  // The shared episode, drawn as the moment will draw it.
  const shareBox = root.querySelector(".post-share");
  if (shareBox) {
    podcasts.episode({ id: episodeId }).then((e) => {
      if (root.isConnected) setHTML(shareBox, episodeShare({ id: e.id, title: e.title, podcastTitle: e.podcastTitle, icon: `v1/podcasts/${e.podcastId}/cover` }));
    }).catch((e) => { if (root.isConnected) setHTML(shareBox, errorBlock(e)); });
  }

  const draw = (pic) => {
    pic.el.className = `post-pic ${pic.state}`;
    pic.el.querySelector(".post-progress").style.setProperty("--p", `${Math.round(pic.progress * 100)}%`);
    pic.el.querySelector(".post-progress").textContent = pic.state === "done" ? "" : pic.state === "failed" ? "!" : `${Math.round(pic.progress * 100)}%`;
    pic.el.setAttribute("aria-label", pic.state === "done" ? pic.file.name : t("uploading", { p: `${Math.round(pic.progress * 100)}%` }));
  };
  const upload = async (pic) => {
    try {
      const resized = await resizePicture(pic.file);
      pic.state = "uploading";
      draw(pic);
      pic.stored = await uploadPicture(resized.blob, pic.file.name, (p) => { pic.progress = p; draw(pic); });
      pic.state = "done";
    } catch (e) {
      pic.state = "failed";
      error.textContent = e.message;
    }
    draw(pic);
  };
  root.querySelector(".post-file").addEventListener("change", (event) => {
    error.textContent = "";
    for (const file of event.target.files) {
      if (!PICTURE_TYPES.includes(file.type)) { error.textContent = t("notPicture", { name: file.name }); continue; }
      if (pics.length >= 9) { error.textContent = t("maxPictures"); break; }
      const pic = { file, state: "resizing", progress: 0, url: URL.createObjectURL(file) };
      pic.el = document.createElement("li");
      setHTML(pic.el, html`<img src="${pic.url}" alt=""><span class="post-progress"></span>
        <button type="button" class="post-remove" aria-label="${t("delete")}">${icon("close")}</button>`);
      pic.el.querySelector(".post-remove").addEventListener("click", () => {
        pics.splice(pics.indexOf(pic), 1);
        pic.el.remove();
        URL.revokeObjectURL(pic.url);
        addTile.hidden = pics.length >= 9;
      });
      list.insertBefore(pic.el, addTile);
      pics.push(pic);
      draw(pic);
      upload(pic);
    }
    addTile.hidden = pics.length >= 9;
    event.target.value = "";
  });

  // Names near here for the place field: the browser's position is asked for once, when the field is used.
  root.querySelector(".place-input").addEventListener("focus", () => {
    if (coords || !navigator.geolocation) return;
    navigator.geolocation.getCurrentPosition(async (p) => {
      coords = p.coords;
      try {
        const page = await feeds.nearby({ latitude: coords.latitude, longitude: coords.longitude, size: 20 });
        const names = [...new Set(page.data.map((f) => f.place).filter(Boolean))];
        setHTML(root.querySelector("#place-names"), names.map((n) => html`<option value="${n}"></option>`));
      } catch { /* typing still works */ }
    }, () => {}, { timeout: 10000, maximumAge: 600000 });
  }, { once: true });

  composer(root.querySelector(".post-composer"), {
    placeholder: t("momentPlaceholder"), max: 1000, multiline: true, submitLabel: t("post"),
    async send(text) {
      if (pics.some((p) => p.state === "resizing" || p.state === "uploading")) throw new Error(t("uploading", { p: "…" }));
      const images = pics.filter((p) => p.state === "done").map((p) => ({ uri: p.stored.uri }));
      const place = root.querySelector(".place-input").value.trim();
      await feeds.create({}, {
        content: text, images, place: place || undefined,
        latitude: coords?.latitude, longitude: coords?.longitude, episodeId: episodeId ?? undefined,
      });
      toast(t("posted"));
      navigate("/moments?tab=following", { replace: true });
    },
  });
}
