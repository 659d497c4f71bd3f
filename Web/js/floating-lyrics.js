// Desktop lyrics: the current line (with its karaoke fill) in a floating window — a Document
// Picture-in-Picture window where the browser has one, else a window inside the page that can be dragged —
// with its font size and colour kept on the device.
import { engine } from "./player.js";
import { load, persist } from "./store.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { setHTML, html, toast } from "./ui.js";
import { getLyric, positionAt, lineMarkup, paint } from "./lyrics.js";

export const COLORS = ["#ff4e4e", "#ffffff", "#ffd35c", "#4ed6ff", "#7dff8a"];
const defaults = { size: 28, color: COLORS[0] };
let open = null;

export function lyricPrefs() { return { ...defaults, ...load("cm.lyricsPrefs", {}) }; }

export function setLyricPrefs(patch) {
  const prefs = { ...lyricPrefs(), ...patch };
  persist("cm.lyricsPrefs", prefs);
  open?.apply(prefs);
}

function markup() {
  return html`<div class="float-lyrics" role="dialog" aria-label="${t("desktopLyrics")}">
    <div class="float-bar">
      <button class="float-btn f-smaller" type="button" aria-label="${t("smaller")}">A-</button>
      <button class="float-btn f-larger" type="button" aria-label="${t("larger")}">A+</button>
      <button class="float-btn f-color" type="button" aria-label="${t("lyricColor")}"><span class="f-dot"></span></button>
      <button class="float-btn f-toggle" type="button" aria-label="${t("play")}"></button>
      <button class="float-btn f-close" type="button" aria-label="${t("hideLyrics")}">${icon("close")}</button>
    </div>
    <div class="float-lines" aria-live="off"><div class="float-line current-slot"></div><div class="float-line next-slot"></div></div>
  </div>`;
}

/** Renders into `doc` (the page or the PiP window) and keeps the lines in step with playback. */
function attach(doc, win, container, onClose) {
  setHTML(container, markup());
  const box = container.querySelector(".float-lyrics");
  const current = box.querySelector(".current-slot");
  const next = box.querySelector(".next-slot");
  const stop = new AbortController();
  let lyric = null;
  let songId = null;
  let last = { line: -2, word: -2, el: null };
  let frame = 0;

  const apply = (prefs) => {
    box.style.setProperty("--float-size", `${prefs.size}px`);
    box.style.setProperty("--float-color", prefs.color);
  };
  const loadLyric = async () => {
    const song = engine.song;
    songId = song?.id ?? null;
    lyric = null;
    last = { line: -2, word: -2, el: null };
    current.textContent = song ? song.title : t("emptyQueue");
    next.textContent = "";
    if (!song) return;
    const value = await getLyric(song).catch(() => null);
    if (song.id !== songId) return;
    lyric = value?.lines?.length ? value : null;
    if (!lyric) next.textContent = t("noLyric");
    tick();
  };
  const tick = () => {
    if (!lyric) return;
    const pos = positionAt(lyric, engine.time() * 1000);
    if (pos.line !== last.line) {
      const line = lyric.lines[pos.line];
      setHTML(current, line ? lineMarkup(line, pos.line, "span") : html`${engine.song?.title ?? ""}`);
      const following = lyric.lines[pos.line + 1];
      next.textContent = following?.text ?? "";
      last = { line: -2, word: -2, el: null };
    }
    last = paint(current, lyric, pos, last);
    current.querySelector(".lyric-line")?.classList.add("current");
  };
  const loop = () => {
    tick();
    frame = win.requestAnimationFrame(loop);
  };
  const state = () => {
    setHTML(box.querySelector(".f-toggle"), icon(engine.playing ? "pause" : "play"));
    box.querySelector(".f-toggle").setAttribute("aria-label", t(engine.playing ? "pause" : "play"));
    win.cancelAnimationFrame(frame);
    if (engine.playing) frame = win.requestAnimationFrame(loop);
    else tick();
  };
  box.addEventListener("click", (event) => {
    const prefs = lyricPrefs();
    if (event.target.closest(".f-smaller")) setLyricPrefs({ size: Math.max(16, prefs.size - 2) });
    else if (event.target.closest(".f-larger")) setLyricPrefs({ size: Math.min(48, prefs.size + 2) });
    else if (event.target.closest(".f-color")) setLyricPrefs({ color: COLORS[(COLORS.indexOf(prefs.color) + 1) % COLORS.length] });
    else if (event.target.closest(".f-toggle")) engine.toggle();
    else if (event.target.closest(".f-close")) onClose();
  });
  engine.addEventListener("song", loadLyric, { signal: stop.signal });
  engine.addEventListener("state", state, { signal: stop.signal });
  engine.addEventListener("time", () => { if (!engine.playing) tick(); }, { signal: stop.signal });
  apply(lyricPrefs());
  loadLyric();
  state();
  return { box, apply, destroy: () => { stop.abort(); win.cancelAnimationFrame(frame); } };
}

/** Opens the floating lyrics, or closes them when open. */
export async function toggleFloatingLyrics() {
  if (open) {
    open.close();
    return;
  }
  if ("documentPictureInPicture" in globalThis) {
    try {
      const pip = await documentPictureInPicture.requestWindow({ width: 640, height: 150 });
      for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
        const copy = pip.document.createElement("link");
        copy.rel = "stylesheet";
        copy.href = link.href;
        pip.document.head.append(copy);
      }
      pip.document.documentElement.dataset.theme = "dark";
      pip.document.body.className = "pip-body";
      const view = attach(pip.document, pip, pip.document.body, () => pip.close());
      open = { kind: "pip", apply: view.apply, close: () => pip.close() };
      pip.addEventListener("pagehide", () => {
        view.destroy();
        open = null;
      });
      toast(t("lyricsOn"));
      return;
    } catch {
      // No user gesture, or refused: the in-page window does the same job.
    }
  }
  const holder = document.createElement("div");
  holder.className = "float-holder";
  document.body.append(holder);
  const view = attach(document, window, holder, () => open?.close());
  dragByBar(holder, view.box.querySelector(".float-lines"));
  open = {
    kind: "inline",
    apply: view.apply,
    close: () => {
      view.destroy();
      holder.remove();
      open = null;
    },
  };
}

/** Lets the in-page window be moved by dragging its lines. */
function dragByBar(holder, handle) {
  handle.addEventListener("pointerdown", (event) => {
    const rect = holder.getBoundingClientRect();
    const dx = event.clientX - rect.left;
    const dy = event.clientY - rect.top;
    handle.setPointerCapture(event.pointerId);
    const move = (e) => {
      holder.style.left = `${Math.max(0, Math.min(innerWidth - rect.width, e.clientX - dx))}px`;
      holder.style.top = `${Math.max(0, Math.min(innerHeight - rect.height, e.clientY - dy))}px`;
      holder.style.bottom = "auto";
      holder.style.transform = "none";
    };
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  });
}

/** Whether the floating lyrics are open, and how ("pip" or "inline"); for tests and the UI. */
export function floatingKind() { return open?.kind ?? null; }
