// Lyrics on screen: the server sends them parsed (lines and, for KSC and word-timed LRC, words with their
// times); this module only finds where playback is and draws it: the current line centred, and the
// karaoke fill of the current word at the display's frame rate.
import { catalog } from "./api.js";
import { engine } from "./player.js";
import { setHTML, html } from "./ui.js";
import { t } from "./i18n.js";

const cache = new Map();

/** The parsed lyric of `song` ({ lines, format }), or null when it has none. */
export function getLyric(song) {
  if (!song || song.kind === "episode") return Promise.resolve(null);
  if (!cache.has(song.id)) {
    const pending = catalog.lyric({ id: song.id }).catch((error) => {
      if (error.status === 404) return null;
      cache.delete(song.id);
      throw error;
    });
    cache.set(song.id, pending);
  }
  return cache.get(song.id);
}

/** The index of the last item whose `start` is at or before `ms` (binary search), or -1. */
export function indexAt(items, ms) {
  let low = 0;
  let high = items.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (items[mid].start <= ms) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/** Where `ms` falls in a lyric: { line, word, progress } with `progress` through the current word. */
export function positionAt(lyric, ms) {
  const line = indexAt(lyric.lines, ms);
  if (line < 0) return { line: -1, word: -1, progress: 0 };
  const words = lyric.lines[line].words || [];
  const word = words.length ? indexAt(words, ms) : -1;
  let progress = 0;
  if (word >= 0) {
    const w = words[word];
    progress = w.duration > 0 ? Math.min(1, (ms - w.start) / w.duration) : 1;
  }
  return { line, word, progress };
}

/** Markup of one line: word spans when it is word-timed. */
export function lineMarkup(line, index, tag = "p") {
  const inner = line.words?.length
    ? line.words.map((w, i) => html`<span class="w" data-w="${i}">${w.text}</span>`)
    : line.text || "♪";
  return html`<${tag} class="lyric-line${line.words?.length ? " timed" : ""}" data-i="${index}" data-start="${line.start}">${inner}</${tag}>`;
}

/** Applies a position to rendered lines: classes on the current line and words, the fill of the current
 * word. Returns the new position; writes to the DOM only what changed. */
export function paint(root, lyric, pos, last) {
  if (pos.line !== last.line) {
    for (const word of root.querySelectorAll(".lyric-line.current .w")) {
      word.classList.remove("done", "active");
      word.style.removeProperty("--p");
    }
    root.querySelector(".lyric-line.current")?.classList.remove("current");
    root.querySelector(".lyric-line[aria-current]")?.removeAttribute("aria-current");
    const el = pos.line >= 0 ? root.querySelector(`.lyric-line[data-i="${pos.line}"]`) : null;
    if (el) {
      el.classList.add("current");
      el.setAttribute("aria-current", "true");
    }
    last = { line: pos.line, word: -2, el };
  }
  const lineEl = last.el;
  if (lineEl && lineEl.classList.contains("timed")) {
    if (pos.word !== last.word) {
      const words = lineEl.children;
      for (let i = 0; i < words.length; i++) {
        words[i].classList.toggle("done", i < pos.word);
        words[i].classList.toggle("active", i === pos.word);
        if (i !== pos.word) words[i].style.removeProperty("--p");
      }
      last = { ...last, word: pos.word };
    }
    if (pos.word >= 0) lineEl.children[pos.word]?.style.setProperty("--p", `${(pos.progress * 100).toFixed(1)}%`);
  }
  return last;
}

/** The scrolling lyric view of the play page. */
export class LyricView {
  constructor(container) {
    this.container = container;
    this.lyric = null;
    this.last = { line: -2, word: -2, el: null };
    this.frame = 0;
    this.userScrolledAt = 0;
    this.songId = null;
    container.classList.add("lyric-view");
    setHTML(container, html`<div class="lyric-scroll" role="region" tabindex="0" aria-label="${t("nowPlaying")}"></div>`);
    this.scroller = container.firstElementChild;
    const userScroll = () => { this.userScrolledAt = performance.now(); };
    this.scroller.addEventListener("wheel", userScroll, { passive: true });
    this.scroller.addEventListener("touchmove", userScroll, { passive: true });
    this.scroller.addEventListener("click", (event) => {
      const line = event.target.closest(".lyric-line");
      if (!line || !this.lyric) return;
      this.userScrolledAt = 0;
      engine.seek(Number(line.dataset.start) / 1000 + 0.01);
      if (!engine.playing) engine.play();
      this.tick(true);
    });
    this.onSong = () => this.load();
    this.onState = () => this.run();
    this.onTime = () => { if (!engine.playing) this.tick(true); };
    engine.addEventListener("song", this.onSong);
    engine.addEventListener("state", this.onState);
    engine.addEventListener("time", this.onTime);
    this.load();
  }

  async load() {
    const song = engine.song;
    if (song?.id === this.songId) return;
    this.songId = song?.id ?? null;
    this.lyric = null;
    this.last = { line: -2, word: -2, el: null };
    if (!song) {
      this.scroller.replaceChildren();
      return;
    }
    setHTML(this.scroller, html`<p class="lyric-empty">${t("lyricLoading")}</p>`);
    let lyric = null;
    try {
      lyric = await getLyric(song);
    } catch {
      lyric = null;
    }
    if (this.songId !== song.id || !this.container.isConnected) return;
    if (!lyric || !lyric.lines?.length) {
      setHTML(this.scroller, html`<p class="lyric-empty">${t("noLyric")}</p>`);
      return;
    }
    this.lyric = lyric;
    setHTML(this.scroller, html`<div class="lyric-pad"></div>${lyric.lines.map((line, i) => lineMarkup(line, i))}<div class="lyric-pad"></div>`);
    this.tick(true);
    this.run();
  }

  run() {
    cancelAnimationFrame(this.frame);
    if (!engine.playing || !this.lyric) {
      this.tick(true);
      return;
    }
    const loop = () => {
      this.tick(false);
      this.frame = requestAnimationFrame(loop);
    };
    this.frame = requestAnimationFrame(loop);
  }

  tick(force) {
    if (!this.lyric) return;
    const ms = engine.time() * 1000;
    const pos = positionAt(this.lyric, ms);
    const lineChanged = pos.line !== this.last.line;
    this.last = paint(this.scroller, this.lyric, pos, this.last);
    if ((lineChanged || force) && performance.now() - this.userScrolledAt > 3000) this.center();
  }

  center() {
    const el = this.last.el;
    if (!el || this.scroller.clientHeight === 0) return;
    const top = el.offsetTop - this.scroller.clientHeight / 2 + el.offsetHeight / 2;
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.scroller.scrollTo({ top, behavior: smooth ? "smooth" : "auto" });
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    engine.removeEventListener("song", this.onSong);
    engine.removeEventListener("state", this.onState);
    engine.removeEventListener("time", this.onTime);
  }
}
