// The layout sheet, album, artist and genre pages share: a header over the blurred cover with the cover,
// title, counts and actions, then "play all" and the songs with the playing one marked.
import { engine } from "./player.js";
import { back } from "./router.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { setHTML, html, img, songRow, markPlaying, loadingBlock, errorBlock, emptyBlock } from "./ui.js";
import { cover } from "./media.js";
import { bindSongList } from "./actions.js";

/** The page frame, shown at once while the data loads. */
export function frame(root, kind, fallback = "/") {
  setHTML(root, html`<div class="detail"><div class="detail-head">
      <div class="detail-bg" aria-hidden="true"></div>
      <header class="top-bar clear"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
        <span class="top-title">${kind}</span></header>
      <div class="detail-info"></div><div class="detail-actions"></div></div>
    <div class="detail-body">${loadingBlock()}</div></div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back(fallback));
}

/** Fills the header: `thing` gives the cover; `lines` are markup under the title; `actions` buttons. */
export function head(root, { thing, title, lines = [], actions = "", round = false }) {
  const bg = cover(thing, 128);
  setHTML(root.querySelector(".detail-bg"), bg ? html`<img src="${bg}" alt="">` : "");
  setHTML(root.querySelector(".detail-info"), html`<span class="detail-cover${round ? " round" : ""}">${img(thing, 128, "", "")}</span>
    <div class="detail-text"><h1 class="detail-title">${title}</h1>${lines.map((line) => html`<p class="detail-line">${line}</p>`)}</div>`);
  setHTML(root.querySelector(".detail-actions"), actions);
  root.querySelector(".top-title").textContent = title;
}

/** Fills the songs; returns a function that stops marking the playing one. */
export function songs(root, list, { sub, extraFor, total } = {}) {
  const body = root.querySelector(".detail-body");
  if (!list.length) {
    setHTML(body, emptyBlock(t("noMore")));
    return () => {};
  }
  setHTML(body, html`<div class="play-all-row">
      <button class="play-all" type="button"><span class="play-all-icon">${icon("play")}</span>${t("playAll")}
        <span class="play-all-count">${t("songsCount", { n: total ?? list.length })}</span></button>
      <button class="icon-btn queue-all" type="button" aria-label="${t("addToQueue")}" title="${t("addToQueue")}">${icon("addList")}</button>
    </div><ol class="song-list">${list.map((song, i) => songRow(song, i, { sub: sub?.(song) }))}</ol>`);
  body.querySelector(".play-all").addEventListener("click", () => engine.playList(list, 0));
  body.querySelector(".queue-all").addEventListener("click", () => engine.append(list));
  bindSongList(body.querySelector(".song-list"), () => list, extraFor);
  const mark = () => markPlaying(body, engine.song?.id);
  mark();
  engine.addEventListener("song", mark);
  return () => engine.removeEventListener("song", mark);
}

export function failed(root, error, retry) {
  const body = root.querySelector(".detail-body");
  setHTML(body, errorBlock(error));
  body.querySelector("[data-action=retry]").addEventListener("click", retry);
}

/** A header action button. */
export function action(name, iconName, label, { on = false, disabled = false } = {}) {
  return html`<button class="head-action${on ? " on" : ""}" type="button" data-head="${name}" ${disabled ? "disabled" : ""} aria-pressed="${on}">
    ${icon(iconName)}<span>${label}</span></button>`;
}
