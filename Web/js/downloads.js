// Songs kept on the device: the audio (and the song's details, lyric and cover) in the Cache Storage, where
// the service worker answers the player from, with Range, when the network is gone.
import { load, persist } from "./store.js";
import { media } from "./media.js";

const CACHE = "cm-songs";
const COVER_SIZES = [64, 128, 256, 512];
let saved = load("cm.downloads", {});
/** Downloads in flight: song id -> fraction done (NaN when the size is unknown). */
export const progress = new Map();
/** `change` after every download, removal or progress step. */
export const events = new EventTarget();

export const supported = () => "caches" in globalThis;

const changed = () => events.dispatchEvent(new Event("change"));
const root = new URL("/", location.href);
const extras = (song) => [
  new URL(`v1/songs/${encodeURIComponent(song.id)}`, root).href,
  new URL(`v1/songs/${encodeURIComponent(song.id)}/lyric`, root).href,
  ...(song.icon ? COVER_SIZES.map((size) => media(song.icon, size)) : []),
];

/** The address a downloaded song was saved under, or undefined. */
export function savedURL(id) { return saved[id]?.url; }
export function isDownloaded(id) { return !!saved[id]; }
/** Downloaded songs, newest first: { song, url, bytes, at }. */
export function list() { return Object.values(saved).sort((a, b) => b.at - a.at); }

/** Downloads `song` from `url` (the address the player uses) into the Cache Storage. */
export async function download(song, url) {
  if (!supported()) throw new Error("Cache Storage is not available (the app needs HTTPS or localhost).");
  if (saved[song.id] || progress.has(song.id)) return;
  progress.set(song.id, 0);
  changed();
  try {
    const response = await fetch(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const total = Number(response.headers.get("Content-Length")) || 0;
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    let lastTick = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (performance.now() - lastTick > 100) {
        lastTick = performance.now();
        progress.set(song.id, total ? received / total : NaN);
        changed();
      }
    }
    const type = response.headers.get("Content-Type") || "audio/mpeg";
    const blob = new Blob(chunks, { type });
    const cache = await caches.open(CACHE);
    await cache.put(url, new Response(blob, { headers: { "Content-Type": type, "Content-Length": String(blob.size) } }));
    await Promise.all(extras(song).map(async (address) => {
      try {
        const extra = await fetch(address);
        if (extra.ok) await cache.put(address, extra);
      } catch {
        // A missing lyric or cover does not stop the song from playing offline.
      }
    }));
    saved[song.id] = { song, url, bytes: blob.size, at: Date.now() };
    persist("cm.downloads", saved);
    navigator.storage?.persist?.().catch(() => {});
    // Meant to be played offline: the worker keeps the rest of the app too (it keeps only the first render's
    // files until then).
    navigator.serviceWorker?.controller?.postMessage("keep-app");
  } finally {
    progress.delete(song.id);
    changed();
  }
}

export async function remove(id) {
  const entry = saved[id];
  if (!entry) return;
  delete saved[id];
  persist("cm.downloads", saved);
  if (supported()) {
    const cache = await caches.open(CACHE);
    await Promise.all([entry.url, ...extras(entry.song)].map((address) => cache.delete(address)));
  }
  changed();
}

export async function clearAll() {
  saved = {};
  persist("cm.downloads", saved);
  if (supported()) await caches.delete(CACHE);
  changed();
}

/** Bytes used by downloads, and what the browser reports for the whole origin. */
export async function usage() {
  const ours = list().reduce((sum, entry) => sum + entry.bytes, 0);
  const estimate = (await navigator.storage?.estimate?.().catch(() => null)) || {};
  return { downloads: ours, usage: estimate.usage ?? ours, quota: estimate.quota ?? 0 };
}
