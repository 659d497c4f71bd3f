// Podcast episodes in the app's one audio engine (player.js): an episode is queued as a song-like item
// (`kind: "episode"`), played at the speed the person chose (0.5-3x, remembered), with skips of 15 s, a sleep
// timer, and the place saved to the server (PUT /v1/episodes/{id}/progress) every 15 s while playing, on
// pause, at the end and when the page goes away, so every other client resumes there.
import { podcasts } from "./api.js";
import { getToken } from "./http.js";
import { engine } from "./player.js";
import { load, persist } from "./store.js";

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];
/** Sleep timer choices: minutes, or "end" (the end of this episode). */
export const SLEEPS = [15, 30, 60, "end"];
const SAVE_EVERY = 15_000;

let speed = clampSpeed(load("cm.podcastSpeed", 1));
let sleep = null; // { choice, until (ms since 1970) or null, timer }
let lastSaved = 0;
let lastSavedPosition = -1;
const events = new EventTarget();

function clampSpeed(value) {
  const n = Number(value);
  return Number.isFinite(n) ? Math.min(3, Math.max(0.5, n)) : 1;
}

/** The song-like item an episode is queued as. */
export function asItem(episode) {
  return {
    id: `episode-${episode.id}`, kind: "episode", episodeId: episode.id, title: episode.title,
    icon: episode.podcastId ? `v1/podcasts/${episode.podcastId}/cover` : null,
    duration: (episode.duration ?? 0) * 1000, singer: { nickname: episode.podcastTitle ?? "" },
  };
}

/** The episode playing (or loaded), or null. */
export function current() {
  const song = engine.song;
  return song?.kind === "episode" ? song : null;
}

/** Plays `episode` from the place saved for it (its `progress`, unless finished); the episodes of `list` after
 * it follow. */
export function playEpisode(episode, list = [episode]) {
  const progress = episode.progress;
  const at = progress && !progress.finished ? progress.position : 0;
  const index = Math.max(0, list.findIndex((e) => e.id === episode.id));
  lastSavedPosition = -1;
  engine.playList((list.length ? list : [episode]).map(asItem), index, at);
  applySpeed();
}

export function getSpeed() { return speed; }

export function setSpeed(value) {
  speed = clampSpeed(value);
  persist("cm.podcastSpeed", speed);
  applySpeed();
  events.dispatchEvent(new Event("change"));
}

/** Episodes play at the chosen speed, songs at their own. */
function applySpeed() {
  const rate = current() ? speed : 1;
  for (const audio of engine.audios) {
    audio.defaultPlaybackRate = rate;
    audio.playbackRate = rate;
  }
}

export function skip(seconds) {
  engine.seek(engine.time() + seconds);
}

/** The sleep timer: `choice` minutes, "end" (this episode's end), or null (off). */
export function setSleep(choice) {
  clearTimeout(sleep?.timer);
  sleep = null;
  engine.stopAtEnd = choice === "end";
  if (choice === "end") sleep = { choice, until: null };
  else if (SLEEPS.includes(Number(choice))) {
    const ms = Number(choice) * 60_000;
    sleep = { choice: Number(choice), until: Date.now() + ms, timer: setTimeout(fallAsleep, ms) };
  }
  events.dispatchEvent(new Event("change"));
}

export function getSleep() { return sleep ? { choice: sleep.choice, until: sleep.until } : null; }

function fallAsleep() {
  sleep = null;
  engine.pause();
  events.dispatchEvent(new Event("change"));
}

/** Calls `fn` when the speed or the sleep timer changes; returns the function that stops it. */
export function onChange(fn) {
  events.addEventListener("change", fn);
  return () => events.removeEventListener("change", fn);
}

/** Saves the place in the current episode (now, unless it did not move). */
export function saveProgress({ finished = false, force = false } = {}) {
  const item = current();
  if (!item || !getToken() || engine.loadedKey === null) return Promise.resolve();
  const position = Math.max(0, Math.round(engine.time() * 10) / 10);
  if (!force && !finished && position === lastSavedPosition) return Promise.resolve();
  lastSaved = Date.now();
  lastSavedPosition = position;
  const body = { position, finished, updatedAt: new Date().toISOString() };
  return podcasts.saveProgress({ id: item.episodeId }, body).catch(() => {});
}

engine.addEventListener("song", applySpeed);
engine.addEventListener("time", () => {
  if (current() && engine.playing && Date.now() - lastSaved >= SAVE_EVERY) saveProgress();
});
engine.addEventListener("paused", () => saveProgress());
engine.addEventListener("episodeEnded", () => {
  saveProgress({ finished: true });
  if (sleep?.choice === "end") {
    sleep = null;
    events.dispatchEvent(new Event("change"));
  }
});
addEventListener("pagehide", () => saveProgress());
