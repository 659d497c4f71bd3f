// The layout sheet, album, artist and genre pages share: a header over the blurred cover with the cover,
// title, counts and actions, then "play all" and the songs with the playing one marked.
import { engine } from "./player.js";
import { back } from "./router.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { esc, img, songRow, markPlaying, loadingBlock, errorBlock, emptyBlock } from "./ui.js";
import { cover } from "./media.js";
import { bindSongList } from "./actions.js";

/** The page frame, shown at once while the data loads. */
export function frame(root, kind, fallback = "/") {
  root.innerHTML = `<div class="detail"><div class="detail-head">
      <div class="detail-bg" aria-hidden="true"></div>
      <header class="top-bar clear"><button class="icon-btn back-btn" type="button" aria-label="${esc(t("back"))}">${icon("back")}</button>
        <span class="top-title">${esc(kind)}</span></header>
      <div class="detail-info"></div><div class="detail-actions"></div></div>
    <div class="detail-body">${loadingBlock()}</div></div>`;
  root.querySelector(".back-btn").addEventListener("click", () => back(fallback));
}

/** Fills the header: `thing` gives the cover; `lines` are markup under the title; `actions` buttons. */
export function head(root, { thing, title, lines = [], actions = "", round = false }) {
  const bg = cover(thing, 128);
  root.querySelector(".detail-bg").innerHTML = bg ? `<img src="${esc(bg)}" alt="">` : "";
  root.querySelector(".detail-info").innerHTML = `<span class="detail-cover${round ? " round" : ""}">${img(thing, 128, "", "")}</span>
    <div class="detail-text"><h1 class="detail-title">${esc(title)}</h1>${lines.map((line) => `<p class="detail-line">${line}</p>`).join("")}</div>`;
  root.querySelector(".detail-actions").innerHTML = actions;
  root.querySelector(".top-title").textContent = title;
}

/** Fills the songs; returns a function that stops marking the playing one. */
export function songs(root, list, { sub, extraFor, total } = {}) {
  const body = root.querySelector(".detail-body");
  if (!list.length) {
    body.innerHTML = emptyBlock(t("noMore"));
    return () => {};
  }
  body.innerHTML = `<div class="play-all-row">
      <button class="play-all" type="button"><span class="play-all-icon">${icon("play")}</span>${esc(t("playAll"))}
        <span class="play-all-count">${esc(t("songsCount", { n: total ?? list.length }))}</span></button>
      <button class="icon-btn queue-all" type="button" aria-label="${esc(t("addToQueue"))}" title="${esc(t("addToQueue"))}">${icon("addList")}</button>
    </div><ol class="song-list">${list.map((song, i) => songRow(song, i, { sub: sub?.(song) })).join("")}</ol>`;
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
  body.innerHTML = errorBlock(error);
  body.querySelector("[data-action=retry]").addEventListener("click", retry);
}

/** A header action button. */
export function action(name, iconName, label, { on = false, disabled = false } = {}) {
  return `<button class="head-action${on ? " on" : ""}" type="button" data-head="${name}" ${disabled ? "disabled" : ""} aria-pressed="${on}">
    ${icon(iconName)}<span>${esc(label)}</span></button>`;
}
