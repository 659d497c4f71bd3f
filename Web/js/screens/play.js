// The play page: the record turning while it plays (stopping where it is on pause), the tone arm moving on
// and off, swipe for next and previous, a blurred cover behind, the lyrics with the current line centred and
// the karaoke fill, progress with seek, loop mode, previous/next, the queue, like and download.
import { engine } from "../player.js";
import { back, navigate } from "../router.js";
import { t, duration } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, artistNames, toast } from "../ui.js";
import { cover } from "../media.js";
import { LyricView, getLyric, indexAt } from "../lyrics.js";
import { openQueue } from "../queue-drawer.js";
import { toggleLike, isLiked, download, songMenu, addToSheet } from "../actions.js";
import * as downloads from "../downloads.js";
import * as store from "../store.js";

const modeIcon = { list: "loopList", single: "loopSingle", shuffle: "loopShuffle" };
const TONEARM = html`<svg viewBox="0 0 120 136" aria-hidden="true" focusable="false">
  <path d="M22 22 L38 76 L80 100" fill="none" stroke="#d5d5db" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M22 22 L38 76 L80 100" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round" opacity=".75"/>
  <g transform="rotate(-62 90 106)"><rect x="78" y="92" width="24" height="30" rx="5" fill="#f4f4f6" stroke="#c4c4cb" stroke-width="2"/>
  <rect x="84" y="118" width="12" height="6" rx="2" fill="#9a9aa2"/></g>
  <circle cx="22" cy="22" r="18" fill="#f4f4f6" stroke="#c4c4cb" stroke-width="2"/>
  <circle cx="22" cy="22" r="8" fill="#b4b4bc"/></svg>`;

export async function mount(root) {
  setHTML(root, html`<div class="play-page">
    <div class="play-bg" aria-hidden="true"></div>
    <header class="play-top">
      <button class="icon-btn play-close" type="button" aria-label="${t("back")}">${icon("down")}</button>
      <div class="play-heading"><h1 class="play-title"></h1><p class="play-artist"></p></div>
      <button class="icon-btn play-more" type="button" aria-label="${t("more2")}">${icon("more")}</button>
    </header>
    <div class="play-main" data-view="disc">
      <div class="disc-pane">
        <div class="tonearm">${TONEARM}</div>
        <div class="disc-stage" role="button" tabindex="0" aria-label="${t("showLyrics")}"></div>
        <p class="disc-lyric" aria-hidden="true"></p>
      </div>
      <div class="lyric-pane"></div>
    </div>
    <div class="play-actions">
      <button class="icon-btn act-like" type="button" aria-label="${t("like")}"></button>
      <button class="icon-btn act-download" type="button" aria-label="${t("download")}"></button>
      <button class="icon-btn act-sheet" type="button" aria-label="${t("addToSheet")}" title="${t("addToSheet")}">${icon("plus")}</button>
      <button class="icon-btn act-comments" type="button" aria-label="${t("comments")}" title="${t("comments")}">${icon("comment")}</button>
      <button class="icon-btn act-desk-lyrics desk-only" type="button" aria-label="${t("desktopLyrics")}" title="${t("desktopLyrics")}">${icon("lyrics")}</button>
    </div>
    <div class="play-seek">
      <span class="seek-time">0:00</span>
      <input class="range seek-range" type="range" min="0" max="1000" value="0" aria-label="${t("nowPlaying")}">
      <span class="seek-duration">0:00</span>
    </div>
    <div class="play-controls">
      <button class="icon-btn ctl-mode" type="button"></button>
      <button class="icon-btn ctl-prev" type="button" aria-label="${t("previous")}">${icon("prev")}</button>
      <button class="ctl-toggle" type="button"></button>
      <button class="icon-btn ctl-next" type="button" aria-label="${t("next")}">${icon("next")}</button>
      <button class="icon-btn ctl-queue" type="button" aria-label="${t("queue")}">${icon("queue")}</button>
    </div>
  </div>`);
  const page = root.querySelector(".play-page");
  const q = (selector) => page.querySelector(selector);
  const main = q(".play-main");
  const stage = q(".disc-stage");
  const seek = q(".seek-range");
  const lyrics = new LyricView(q(".lyric-pane"));
  const stop = new AbortController();
  const on = (type, fn) => engine.addEventListener(type, fn, { signal: stop.signal });
  let dragging = false;
  let shownId = null;
  let lyric = null;

  const setView = (view) => {
    main.dataset.view = view;
    stage.setAttribute("aria-label", t("showLyrics"));
    if (view === "lyric") lyrics.center();
  };

  const renderSong = () => {
    const song = engine.song;
    if (!song) {
      q(".play-title").textContent = t("emptyQueue");
      q(".play-artist").textContent = "";
      setHTML(stage, html`<div class="disc"><div class="disc-spin"><span class="disc-cover ph">${icon("note")}</span></div></div>`);
      return;
    }
    if (song.id === shownId) return;
    shownId = song.id;
    q(".play-title").textContent = song.title;
    const artist = song.artists?.[0];
    setHTML(q(".play-artist"), artist
      ? html`<a href="/artist/${artist.id}">${artistNames(song)}</a>${song.album ? html` · <a href="/album/${song.album.id}">${song.album.title}</a>` : ""}`
      : html`${artistNames(song)}`);
    const big = cover(song, 300);
    setHTML(q(".play-bg"), big ? html`<img src="${cover(song, 128)}" alt="">` : "");
    // A new disc element starts its turn from the top, sliding in.
    setHTML(stage, html`<div class="disc enter"><div class="disc-spin">${big ? html`<img class="disc-cover" src="${big}" alt="${song.album?.title ?? song.title}" width="300" height="300">` : html`<span class="disc-cover ph">${icon("note")}</span>`}</div></div>`);
    q(".seek-duration").textContent = duration(song.duration);
    q(".disc-lyric").textContent = "";
    lyric = null;
    getLyric(song).then((value) => { if (engine.song?.id === song.id) lyric = value; renderTime(); }).catch(() => {});
    renderLike();
    renderDownload();
  };

  const renderState = () => {
    const playing = engine.playing;
    page.classList.toggle("is-playing", playing);
    const toggle = q(".ctl-toggle");
    setHTML(toggle, icon(playing ? "pause" : "play"));
    toggle.setAttribute("aria-label", t(playing ? "pause" : "play"));
  };

  const renderTime = () => {
    const total = engine.duration();
    const now = engine.time();
    if (!dragging) {
      const fraction = total > 0 ? Math.min(1, now / total) : 0;
      seek.value = String(Math.round(fraction * 1000));
      seek.style.setProperty("--fill", `${fraction * 100}%`);
      q(".seek-time").textContent = duration(now, true);
    }
    if (total > 0) q(".seek-duration").textContent = duration(total, true);
    if (lyric?.lines?.length) {
      const line = lyric.lines[indexAt(lyric.lines, now * 1000)];
      const text = line?.text ?? "";
      if (q(".disc-lyric").textContent !== text) q(".disc-lyric").textContent = text;
    }
  };

  const renderMode = () => {
    const button = q(".ctl-mode");
    setHTML(button, icon(modeIcon[engine.mode]));
    const label = t({ list: "loopList", single: "loopSingle", shuffle: "loopShuffle" }[engine.mode]);
    button.setAttribute("aria-label", label);
    button.title = label;
    button.dataset.mode = engine.mode;
  };

  const renderLike = () => {
    const liked = isLiked(engine.song);
    const button = q(".act-like");
    setHTML(button, icon(liked ? "heartFill" : "heart"));
    button.classList.toggle("on", liked);
    button.setAttribute("aria-label", t(liked ? "unlike" : "like"));
    button.setAttribute("aria-pressed", String(liked));
  };

  const renderDownload = () => {
    const song = engine.song;
    const button = q(".act-download");
    const done = song && downloads.isDownloaded(song.id);
    const fraction = song ? downloads.progress.get(song.id) : undefined;
    setHTML(button, icon(done ? "done" : "download"));
    button.classList.toggle("on", !!done);
    const label = done ? t("downloaded") : fraction !== undefined ? t("downloading", { p: Number.isNaN(fraction) ? "" : `${Math.round(fraction * 100)}%` }) : t("download");
    button.setAttribute("aria-label", label);
    button.title = label;
  };

  // Swipe the record for the next or previous song; a tap shows the lyrics. The tap opens them on `click`,
  // not on finger-up: a finger's tap sends its click after pointerup, to whatever is under it by then, and
  // that would be the lyric pane that just replaced the record (which flips back on a click).
  let swiped = false;
  stage.addEventListener("click", () => {
    if (swiped) swiped = false;
    else setView("lyric");
  });
  stage.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    swiped = false;
    const disc = stage.querySelector(".disc");
    const startX = event.clientX;
    const startY = event.clientY;
    const width = stage.clientWidth || 300;
    let dx = 0;
    let moved = false;
    stage.setPointerCapture(event.pointerId);
    const move = (e) => {
      dx = e.clientX - startX;
      if (!moved && Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(e.clientY - startY)) moved = true;
      if (moved && disc) disc.style.transform = `translateX(${dx}px)`;
    };
    const up = () => {
      stage.removeEventListener("pointermove", move);
      stage.removeEventListener("pointerup", up);
      stage.removeEventListener("pointercancel", up);
      swiped = moved;
      if (!moved) return;
      if (Math.abs(dx) > width / 4 && engine.queue.length > 1) {
        disc?.classList.add(dx < 0 ? "leave-left" : "leave-right");
        if (dx < 0) engine.next();
        else engine.previous();
      } else if (disc) {
        disc.style.transform = "";
      }
    };
    stage.addEventListener("pointermove", move);
    stage.addEventListener("pointerup", up);
    stage.addEventListener("pointercancel", up);
  });
  stage.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      setView("lyric");
    }
  });
  q(".lyric-pane").addEventListener("click", (event) => {
    if (!event.target.closest(".lyric-line") && matchMedia("(max-width: 959px)").matches) setView("disc");
  });

  q(".play-close").addEventListener("click", () => back("/"));
  q(".play-more").addEventListener("click", () => engine.song && songMenu(engine.song));
  q(".ctl-toggle").addEventListener("click", () => engine.toggle());
  q(".ctl-prev").addEventListener("click", () => engine.previous());
  q(".ctl-next").addEventListener("click", () => engine.next());
  q(".ctl-mode").addEventListener("click", () => {
    engine.cycleMode();
    toast(t({ list: "loopList", single: "loopSingle", shuffle: "loopShuffle" }[engine.mode]));
  });
  q(".ctl-queue").addEventListener("click", () => openQueue());
  q(".act-like").addEventListener("click", () => toggleLike(engine.song));
  q(".act-download").addEventListener("click", () => engine.song && download(engine.song));
  q(".act-comments").addEventListener("click", () => engine.song && navigate(`/comments/song/${engine.song.id}`));
  q(".act-sheet").addEventListener("click", () => engine.song && addToSheet([engine.song]));
  q(".act-desk-lyrics").addEventListener("click", async () => {
    const { toggleFloatingLyrics } = await import("../floating-lyrics.js");
    toggleFloatingLyrics();
  });
  seek.addEventListener("input", () => {
    dragging = true;
    q(".seek-time").textContent = duration((Number(seek.value) / 1000) * engine.duration(), true);
    seek.style.setProperty("--fill", `${Number(seek.value) / 10}%`);
  });
  seek.addEventListener("change", () => {
    dragging = false;
    engine.seek((Number(seek.value) / 1000) * engine.duration());
  });

  on("song", () => { renderSong(); renderTime(); });
  on("state", renderState);
  on("time", renderTime);
  on("mode", renderMode);
  const unwatch = store.watch(["liked"], renderLike);
  downloads.events.addEventListener("change", renderDownload, { signal: stop.signal });
  document.body.classList.add("on-play-page");
  renderSong();
  renderState();
  renderTime();
  renderMode();
  if (!engine.song) toast(t("emptyQueue"));
  return () => {
    stop.abort();
    unwatch();
    lyrics.destroy();
    document.body.classList.remove("on-play-page");
  };
}

