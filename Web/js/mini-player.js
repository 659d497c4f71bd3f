// The mini player on every page: cover, title, play/pause in a progress ring, next and the queue; on wide
// screens it grows into the desktop player bar (progress bar, loop mode, volume, desktop lyrics).
import { engine } from "./player.js";
import { t, duration } from "./i18n.js";
import { icon } from "./icons.js";
import { setHTML, html, artistNames } from "./ui.js";
import { cover } from "./media.js";
import { navigate } from "./router.js";
import { toggleLike, isLiked } from "./actions.js";
import * as store from "./store.js";

const RING = 2 * Math.PI * 16;
const modeIcon = { list: "loopList", single: "loopSingle", shuffle: "loopShuffle" };
const modeLabel = { list: "loopList", single: "loopSingle", shuffle: "loopShuffle" };

export function mountMiniPlayer(root) {
  root.setAttribute("role", "region");
  setHTML(root, html`
    <div class="mini-progress desk-hide" aria-hidden="true"><div class="mini-progress-fill"></div></div>
    <button class="mini-open" type="button">
      <span class="mini-disc"><span class="mini-cover"></span></span>
      <span class="mini-text"><span class="mini-title"></span><span class="mini-artist"></span></span>
    </button>
    <button class="icon-btn mini-like desk-only" type="button"></button>
    <div class="mini-center">
      <div class="mini-buttons">
        <button class="icon-btn mini-mode desk-only" type="button"></button>
        <button class="icon-btn mini-prev desk-only" type="button" aria-label="${t("previous")}">${icon("prev")}</button>
        <button class="mini-toggle" type="button">
          <svg class="ring" viewBox="0 0 36 36" aria-hidden="true"><circle class="ring-track" cx="18" cy="18" r="16"/><circle class="ring-fill" cx="18" cy="18" r="16" stroke-dasharray="${RING}" stroke-dashoffset="${RING}"/></svg>
          <span class="toggle-icon"></span>
        </button>
        <button class="icon-btn mini-next" type="button" aria-label="${t("next")}">${icon("next")}</button>
      </div>
      <div class="mini-seek desk-only">
        <span class="mini-time">0:00</span>
        <input class="range mini-range" type="range" min="0" max="1000" value="0" aria-label="${t("nowPlaying")}">
        <span class="mini-duration">0:00</span>
      </div>
    </div>
    <div class="mini-right">
      <div class="mini-volume desk-only">
        <button class="icon-btn mini-mute" type="button" aria-label="${t("volume")}">${icon("volume")}</button>
        <input class="range volume-range" type="range" min="0" max="100" aria-label="${t("volume")}">
      </div>
      <button class="icon-btn mini-lyrics desk-only" type="button" aria-label="${t("desktopLyrics")}" title="${t("desktopLyrics")}">${icon("lyrics")}</button>
      <button class="icon-btn mini-queue" type="button" aria-label="${t("queue")}" title="${t("queue")}">${icon("queue")}</button>
    </div>`);
  root.setAttribute("aria-label", t("nowPlaying"));
  const q = (selector) => root.querySelector(selector);
  const range = q(".mini-range");
  const volume = q(".volume-range");
  let dragging = false;
  let shownSongId;

  const renderSong = () => {
    const song = engine.song;
    document.body.classList.toggle("has-song", !!song);
    if (!song) return;
    if (song.id !== shownSongId) {
      shownSongId = song.id;
      const src = cover(song, 48);
      setHTML(q(".mini-cover"), src ? html`<img src="${src}" alt="" width="48" height="48">` : icon("note"));
      q(".mini-title").textContent = song.title;
      q(".mini-artist").textContent = artistNames(song);
      q(".mini-open").setAttribute("aria-label", `${t("openPlayer")}: ${song.title} - ${artistNames(song)}`);
      q(".mini-duration").textContent = duration(song.duration);
    }
    renderLike();
  };
  const renderState = () => {
    const playing = engine.playing;
    root.classList.toggle("is-playing", playing);
    root.classList.toggle("is-loading", engine.loading);
    const toggle = q(".mini-toggle");
    setHTML(toggle.querySelector(".toggle-icon"), icon(playing ? "pause" : "play"));
    toggle.setAttribute("aria-label", t(playing ? "pause" : "play"));
  };
  const renderTime = () => {
    const total = engine.duration();
    const now = engine.time();
    const fraction = total > 0 ? Math.min(1, now / total) : 0;
    q(".ring-fill").setAttribute("stroke-dashoffset", String(RING * (1 - fraction)));
    q(".mini-progress-fill").style.transform = `scaleX(${fraction})`;
    if (!dragging) {
      range.value = String(Math.round(fraction * 1000));
      range.style.setProperty("--fill", `${fraction * 100}%`);
      q(".mini-time").textContent = duration(now, true);
    }
    if (total > 0) q(".mini-duration").textContent = duration(total, true);
  };
  const renderMode = () => {
    const button = q(".mini-mode");
    setHTML(button, icon(modeIcon[engine.mode]));
    button.setAttribute("aria-label", t(modeLabel[engine.mode]));
    button.title = t(modeLabel[engine.mode]);
  };
  const renderVolume = () => {
    volume.value = String(Math.round(engine.volume * 100));
    volume.style.setProperty("--fill", `${engine.audio.muted ? 0 : engine.volume * 100}%`);
    setHTML(q(".mini-mute"), icon(engine.audio.muted || engine.volume === 0 ? "mute" : "volume"));
  };
  const renderLike = () => {
    const liked = isLiked(engine.song);
    const button = q(".mini-like");
    setHTML(button, icon(liked ? "heartFill" : "heart"));
    button.classList.toggle("on", liked);
    button.setAttribute("aria-label", t(liked ? "unlike" : "like"));
    button.setAttribute("aria-pressed", String(liked));
  };

  q(".mini-open").addEventListener("click", () => navigate("/play"));
  q(".mini-toggle").addEventListener("click", () => engine.toggle());
  q(".mini-next").addEventListener("click", () => engine.next());
  q(".mini-prev").addEventListener("click", () => engine.previous());
  q(".mini-mode").addEventListener("click", () => engine.cycleMode());
  q(".mini-queue").addEventListener("click", async () => (await import("./queue-drawer.js")).openQueue());
  q(".mini-like").addEventListener("click", () => toggleLike(engine.song));
  q(".mini-mute").addEventListener("click", () => engine.toggleMute());
  q(".mini-lyrics").addEventListener("click", async () => {
    const { toggleFloatingLyrics } = await import("./floating-lyrics.js");
    toggleFloatingLyrics();
  });
  range.addEventListener("input", () => {
    dragging = true;
    const seconds = (Number(range.value) / 1000) * engine.duration();
    q(".mini-time").textContent = duration(seconds, true);
    range.style.setProperty("--fill", `${Number(range.value) / 10}%`);
  });
  range.addEventListener("change", () => {
    dragging = false;
    engine.seek((Number(range.value) / 1000) * engine.duration());
  });
  volume.addEventListener("input", () => engine.setVolume(Number(volume.value) / 100));

  const stop = new AbortController();
  const on = (type, fn) => engine.addEventListener(type, fn, { signal: stop.signal });
  on("song", () => { renderSong(); renderTime(); });
  on("state", renderState);
  on("time", renderTime);
  on("mode", renderMode);
  on("volume", renderVolume);
  const unwatch = store.watch(["liked"], renderLike);
  renderSong();
  renderState();
  renderTime();
  renderMode();
  renderVolume();
  return () => {
    stop.abort();
    unwatch();
  };
}
