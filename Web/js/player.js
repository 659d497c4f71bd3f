// The audio engine: the only place that touches <audio>. It lives outside the screens, so moving between
// pages never stops the music. Two elements take turns: while one plays, the other holds the next song,
// loaded, so the next one starts the moment the first ends (gapless).
import { catalog, sheets, podcasts } from "./api.js";
import { getToken } from "./http.js";
import { Queue, MODES } from "./queue.js";
import { load, persist } from "./store.js";
import { media } from "./media.js";
import * as downloads from "./downloads.js";

/** What each file format needs from the browser; a format it cannot play is converted by the server. */
const TYPES = {
  mp3: "audio/mpeg", flac: "audio/flac", ogg: 'audio/ogg; codecs="vorbis"', oga: 'audio/ogg; codecs="vorbis"',
  opus: 'audio/ogg; codecs="opus"', m4a: 'audio/mp4; codecs="mp4a.40.2"', mp4: 'audio/mp4; codecs="mp4a.40.2"',
  aac: "audio/aac", wav: "audio/wav", webm: 'audio/webm; codecs="opus"', aiff: "audio/aiff", aif: "audio/aiff",
  wma: "audio/x-ms-wma", ape: "audio/x-ape", wv: "audio/x-wavpack", mpc: "audio/x-musepack", spx: 'audio/ogg; codecs="speex"',
  tta: "audio/x-tta", alac: 'audio/mp4; codecs="alac"',
};
const probe = document.createElement("audio");
const canPlay = (type) => !!type && probe.canPlayType(type) !== "";

/** The conversion this browser plays best: opus, else aac, else mp3. */
export function fallbackFormat() {
  if (canPlay('audio/ogg; codecs="opus"')) return "opus";
  if (canPlay("audio/aac") || canPlay('audio/mp4; codecs="mp4a.40.2"')) return "aac";
  return "mp3";
}

/** The address a song is played from: the original when the browser can play its format, else a conversion. */
export function streamURL(song, convert = false) {
  if (song.kind === "episode") return podcasts.stream({ id: song.episodeId });
  const type = TYPES[String(song.format || "").toLowerCase()];
  // Settings' audio quality on mobile data: a bit rate cap, converted by the server.
  let cap = 0;
  try { cap = Number(JSON.parse(localStorage.getItem("cm.quality") ?? "0")) || 0; } catch { /* unset */ }
  if (cap && navigator.connection?.type === "cellular") {
    return catalog.stream({ id: song.id, format: fallbackFormat(), maxBitRate: cap });
  }
  if (!convert && canPlay(type)) return catalog.stream({ id: song.id });
  return catalog.stream({ id: song.id, format: fallbackFormat() });
}

/** Only what the app shows of a song, so a long queue stays small in storage. */
export function slim(song) {
  const { id, title, icon, uri, style, artists, album, duration, format, singer, kind, episodeId } = song;
  return { id, title, icon, uri, style, artists, album, duration, format, singer, kind, episodeId };
}

class Engine extends EventTarget {
  constructor() {
    super();
    this.audios = [0, 1].map((i) => {
      const audio = document.createElement("audio");
      audio.id = `cm-audio-${i}`;
      audio.preload = "auto";
      audio.hidden = true;
      document.body.append(audio);
      for (const type of ["playing", "pause", "waiting", "ended", "error", "timeupdate", "loadedmetadata", "durationchange", "seeked", "volumechange"]) {
        audio.addEventListener(type, (event) => this.onMedia(audio, event));
      }
      return audio;
    });
    this.active = 0;
    this.audio.dataset.active = "";
    const saved = load("cm.queue", null);
    this.queue = Queue.from(saved?.queue);
    this.resumeAt = saved?.position ?? 0;
    this.syncedVersion = saved?.syncedVersion ?? null;
    this.unsynced = saved?.unsynced ?? false;
    this.loadedKey = null;
    this.converted = false;
    this.preloaded = null;
    this.revision = 0;
    this.loading = false;
    this.reportedLoad = -1;
    this.loadCount = 0;
    this.failures = 0;
    this.lastSave = 0;
    const volume = load("cm.volume", 1);
    for (const audio of this.audios) audio.volume = Math.min(1, Math.max(0, volume));
    this.setupMediaSession();
    addEventListener("pagehide", () => this.save());
  }

  get audio() { return this.audios[this.active]; }
  get spare() { return this.audios[1 - this.active]; }
  get song() { return this.queue.currentSong; }
  get playing() { return !!this.audio.src && !this.audio.paused && !this.audio.ended; }
  get mode() { return this.queue.mode; }
  get volume() { return this.audio.volume; }
  /** Seconds into the current song. */
  time() { return this.loadedKey === null ? this.resumeAt / 1000 : this.audio.currentTime; }
  /** The current song's length in seconds. */
  duration() {
    const d = this.audio.duration;
    return this.loadedKey !== null && Number.isFinite(d) && d > 0 ? d : (this.song?.duration ?? 0) / 1000;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  // MARK: What screens call

  /** Replaces the queue with `songs` and plays the one at `index`, from `at` seconds. */
  playList(songs, index = 0, at = 0) {
    if (!songs.length) return;
    this.queue.replace(songs.map(slim), Math.max(0, Math.min(index, songs.length - 1)));
    this.changed();
    this.start(this.queue.current, { autoplay: true, at });
  }

  /** Plays the queue's entry `key`. */
  playKey(key) {
    this.queue.select(key);
    this.changed();
    this.start(this.queue.current, { autoplay: true });
  }

  /** Plays `song` now, keeping the queue (it goes right after the current song). */
  playNow(song) {
    const item = this.queue.insertNext(slim(song));
    this.queue.select(item.key);
    this.changed();
    this.start(item.key, { autoplay: true });
  }

  insertNext(song) {
    const wasEmpty = !this.queue.length;
    this.queue.insertNext(slim(song));
    this.changed();
    if (wasEmpty) this.start(this.queue.current, { autoplay: false });
  }

  append(songs) {
    const wasEmpty = !this.queue.length;
    this.queue.append(songs.map(slim));
    this.changed();
    if (wasEmpty) this.start(this.queue.current, { autoplay: false });
  }

  remove(key) {
    const wasPlaying = this.playing;
    if (this.queue.remove(key)) {
      this.changed();
      if (this.queue.current === null) this.stop();
      else this.start(this.queue.current, { autoplay: wasPlaying });
    } else {
      this.changed();
    }
  }

  move(from, to) {
    if (this.queue.move(from, to)) this.changed();
  }

  clear() {
    this.queue.clear();
    this.stop();
    this.changed();
  }

  toggle() { if (this.playing) this.pause(); else this.play(); }

  play() {
    if (this.queue.current === null) return;
    if (this.loadedKey !== this.queue.current) {
      this.start(this.queue.current, { autoplay: true, at: this.resumeAt / 1000 });
    } else {
      this.audio.play().catch((error) => this.playFailed(error));
    }
  }

  pause() {
    this.audio.pause();
  }

  next() {
    if (!this.queue.length) return;
    this.advance(false);
  }

  previous() {
    if (!this.queue.length) return;
    this.queue.previous();
    this.changed();
    this.start(this.queue.current, { autoplay: true });
  }

  /** Jumps to `seconds` into the current song. */
  seek(seconds) {
    const target = Math.max(0, Math.min(seconds, Math.max(0, this.duration() - 0.25)));
    if (this.loadedKey === null) {
      this.resumeAt = target * 1000;
      this.emit("time");
      return;
    }
    this.audio.currentTime = target;
    this.emit("time");
  }

  setMode(mode) {
    if (!MODES.includes(mode)) return;
    this.queue.setMode(mode);
    this.changed();
    this.emit("mode");
  }

  cycleMode() { this.setMode(MODES[(MODES.indexOf(this.mode) + 1) % MODES.length]); }

  setVolume(value) {
    const v = Math.min(1, Math.max(0, value));
    for (const audio of this.audios) {
      audio.volume = v;
      audio.muted = false;
    }
    persist("cm.volume", v);
  }

  toggleMute() {
    const muted = !this.audio.muted;
    for (const audio of this.audios) audio.muted = muted;
  }

  /** Adopts a queue saved on another device (see queue-sync.js). */
  adopt(queue, position, version) {
    const before = this.song?.id;
    const wasPlaying = this.playing;
    this.queue = queue;
    this.syncedVersion = version;
    this.unsynced = false;
    this.revision += 1;
    this.preloaded = null;
    if (this.song?.id !== before || !wasPlaying) {
      this.stop(false);
      this.resumeAt = position;
    }
    this.save();
    this.emit("queue");
    this.emit("mode");
    this.emit("song");
  }

  // MARK: Inside

  /** After any change of the queue: save it, tell the screens, sync soon, and forget a stale preload. */
  changed() {
    this.revision += 1;
    this.unsynced = true;
    if (this.preloaded && this.queue.upcoming().key !== this.preloaded.key) this.dropPreload();
    this.save();
    this.emit("queue");
  }

  save() {
    persist("cm.queue", {
      queue: this.queue.toJSON(),
      position: Math.round(this.time() * 1000),
      syncedVersion: this.syncedVersion,
      unsynced: this.unsynced,
    });
    this.lastSave = Date.now();
  }

  stop(clearMedia = true) {
    for (const audio of this.audios) {
      audio.pause();
      audio.removeAttribute("src");
      audio.load();
    }
    this.loadedKey = null;
    this.preloaded = null;
    this.resumeAt = 0;
    if (clearMedia && "mediaSession" in navigator) navigator.mediaSession.metadata = null;
    this.emit("song");
    this.emit("state");
  }

  async urlFor(song, convert) {
    if (!convert) {
      const saved = downloads.savedURL(song.id);
      if (saved) return saved;
    }
    return streamURL(song, convert);
  }

  /** Loads the entry `key` into the active element (or swaps in the preloaded one) and plays it. */
  async start(key, { autoplay, at = 0, convert = false, preloaded = this.preloaded } = {}) {
    const song = this.queue.songOf(key);
    if (!song) return;
    const load = ++this.loadCount;
    const old = this.audio;
    if (!convert && preloaded?.key === key && preloaded.ready && at === 0) {
      // The next song is already loaded in the spare element: switch to it.
      old.pause();
      delete old.dataset.active;
      this.active = 1 - this.active;
      this.audio.dataset.active = "";
      this.preloaded = null;
      old.removeAttribute("src");
      old.load();
    } else {
      this.dropPreload();
      this.dropSpare(preloaded);
      const url = await this.urlFor(song, convert);
      if (load !== this.loadCount) return;
      if (this.audio.src !== url) this.audio.src = url;
      if (at > 0) {
        const seekTo = () => { this.audio.currentTime = at; };
        if (this.audio.readyState >= 1) seekTo();
        else this.audio.addEventListener("loadedmetadata", seekTo, { once: true });
      } else if (this.audio.currentTime > 0) {
        this.audio.currentTime = 0;
      }
    }
    this.loadedKey = key;
    this.converted = convert;
    this.resumeAt = 0;
    this.loading = autoplay;
    this.updateMetadata(song);
    this.emit("song");
    this.emit("state");
    if (autoplay) this.audio.play().catch((error) => this.playFailed(error));
  }

  playFailed(error) {
    // A newer load interrupts an older play(): nothing to tell.
    if (error?.name === "AbortError") return;
    this.loading = false;
    this.emit("state");
    if (error?.name === "NotAllowedError") this.emit("blocked");
  }

  dropPreload() {
    if (!this.preloaded) return;
    this.preloaded = null;
    this.dropSpare(true);
  }

  /** Empties the spare element when it holds a song (`held`) that will not be played. */
  dropSpare(held) {
    if (!held || !this.spare.hasAttribute("src")) return;
    this.spare.removeAttribute("src");
    this.spare.load();
  }

  /** Loads what plays next into the spare element, when little of this song is left. */
  async preloadNext() {
    if (this.preloaded || this.queue.length < 2) return;
    const { key, state } = this.queue.upcoming();
    if (key === null || key === this.queue.current) return;
    const song = this.queue.songOf(key);
    const entry = { key, state, revision: this.revision, ready: false };
    this.preloaded = entry;
    const url = await this.urlFor(song, false);
    if (this.preloaded !== entry) return;
    const spare = this.spare;
    spare.src = url;
    spare.preload = "auto";
    spare.load();
    const ready = () => { if (spare.getAttribute("src") === url) entry.ready = true; };
    spare.addEventListener("canplaythrough", ready, { once: true });
    spare.addEventListener("canplay", ready, { once: true });
  }

  /** Episodes (see episode-player.js) say so at their end ("episodeEnded") and go on to the next in the list,
   * in order and never around, unless the sleep timer asked to stop there (`stopAtEnd`). */
  ended() {
    const song = this.song;
    if (song?.kind !== "episode") return this.advance(true);
    this.emit("episodeEnded", song);
    const next = this.queue.items[this.queue.currentIndex + 1];
    if (this.stopAtEnd || !next) {
      this.stopAtEnd = false;
      this.emit("state");
      return;
    }
    this.playKey(next.key);
  }

  /** Moves to the next song: the preloaded one when the queue has not changed since it was chosen (its
   * shuffle draw included), so the spare element takes over without loading anything. */
  advance(ended) {
    const preloaded = this.preloaded;
    // Held here, so that the queue's change below does not unload it.
    this.preloaded = null;
    if (preloaded && preloaded.revision === this.revision) Object.assign(this.queue, preloaded.state);
    else this.queue.next(ended);
    this.changed();
    if (ended && this.queue.current === this.loadedKey) {
      this.dropSpare(preloaded);
      this.audio.currentTime = 0;
      this.audio.play().catch((error) => this.playFailed(error));
      this.emit("song");
    } else {
      this.start(this.queue.current, { autoplay: true, preloaded });
    }
  }

  onMedia(audio, event) {
    if (audio !== this.audio) {
      if (event.type === "error" && this.preloaded) this.preloaded = null;
      return;
    }
    switch (event.type) {
      case "playing":
        this.loading = false;
        this.failures = 0;
        if (this.reportedLoad !== this.loadCount) {
          this.reportedLoad = this.loadCount;
          this.report(this.song);
        }
        this.emit("state");
        this.positionState();
        break;
      case "waiting":
        this.loading = true;
        this.emit("state");
        break;
      case "pause":
        this.loading = false;
        if (!audio.ended) {
          this.unsynced = true;
          this.save();
          this.emit("paused");
        }
        this.emit("state");
        this.positionState();
        break;
      case "ended":
        this.ended();
        break;
      case "error":
        this.failed();
        break;
      case "timeupdate": {
        const left = this.duration() - audio.currentTime;
        if (left < 20 && !audio.paused) this.preloadNext();
        if (Date.now() - this.lastSave > 5000) this.save();
        this.emit("time");
        break;
      }
      case "seeked":
        this.positionState();
        this.emit("time");
        break;
      case "loadedmetadata":
      case "durationchange":
        this.positionState();
        this.emit("time");
        break;
      case "volumechange":
        this.emit("volume");
        break;
    }
  }

  /** A song that cannot be played: ask for a conversion once, then move on (unless offline). */
  failed() {
    if (this.loadedKey === null) return;
    const song = this.song;
    const code = this.audio.error?.code;
    if (!this.converted && code !== 2 && navigator.onLine) {
      this.start(this.loadedKey, { autoplay: true, at: this.audio.currentTime || 0, convert: true });
      return;
    }
    this.loading = false;
    this.failures += 1;
    this.emit("failed", song);
    this.emit("state");
    if (navigator.onLine && this.failures < Math.min(this.queue.length, 5)) {
      setTimeout(() => this.next(), 800);
    }
  }

  report(song) {
    if (!song || song.kind === "episode" || !getToken()) return;
    sheets.reportPlay({}, { songId: song.id }).catch(() => {});
  }

  // MARK: Lock screen and headset keys

  setupMediaSession() {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    const handlers = {
      play: () => this.play(),
      pause: () => this.pause(),
      stop: () => this.pause(),
      previoustrack: () => this.previous(),
      nexttrack: () => this.next(),
      seekbackward: (details) => this.seek(this.time() - (details.seekOffset || 10)),
      seekforward: (details) => this.seek(this.time() + (details.seekOffset || 10)),
      seekto: (details) => this.seek(details.seekTime),
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // This browser does not know the action.
      }
    }
  }

  updateMetadata(song) {
    if (!("mediaSession" in navigator) || typeof MediaMetadata === "undefined") return;
    const artwork = [128, 256, 512].map((size) => ({
      src: song.icon ? media(song.icon, size) : new URL(`../icons/icon-${size === 128 ? 192 : 512}.png`, import.meta.url).href,
      sizes: `${size}x${size}`,
      type: song.icon ? "image/jpeg" : "image/png",
    }));
    navigator.mediaSession.metadata = new MediaMetadata({
      title: song.title,
      artist: (song.artists || []).map((a) => a.name).join(" / ") || song.singer?.nickname || "",
      album: song.album?.title || "",
      artwork,
    });
  }

  positionState() {
    if (!("mediaSession" in navigator)) return;
    navigator.mediaSession.playbackState = this.playing ? "playing" : this.loadedKey === null ? "none" : "paused";
    const duration = this.duration();
    if (!navigator.mediaSession.setPositionState || !(duration > 0)) return;
    try {
      navigator.mediaSession.setPositionState({
        duration,
        playbackRate: this.audio.playbackRate || 1,
        position: Math.min(duration, Math.max(0, this.time())),
      });
    } catch {
      // A duration the browser does not accept yet.
    }
  }
}

/** The one audio engine of the app. */
export const engine = new Engine();
