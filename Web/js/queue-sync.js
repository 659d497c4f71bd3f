// The queue follows the person between devices through GET/PUT /v1/queue, with the SDK's rule
// (CloudMusicKit's MusicListManager.syncWithServer): local changes not yet saved go up with the version
// they were based on; when another device saved a newer queue (409), or nothing changed here, the server's
// newer queue comes down. A save on another device also arrives at once through the event stream (live.js),
// which hands it to `applyRemote`.
import { sheets, catalog } from "./api.js";
import { getToken } from "./http.js";
import { engine, slim } from "./player.js";
import { Queue } from "./queue.js";

let running = null;
let timer = 0;

function localQueue() {
  const queue = engine.queue;
  const index = queue.currentIndex;
  return {
    songIds: queue.items.map((item) => item.song.id),
    currentIndex: index >= 0 ? index : undefined,
    position: Math.round(engine.time() * 1000),
    loopMode: queue.mode,
  };
}

/** The songs of `ids`, from the queue when known, else from the server six at a time. */
async function songsFor(ids) {
  const known = new Map(engine.queue.items.map((item) => [item.song.id, item.song]));
  const missing = [...new Set(ids.filter((id) => !known.has(id)))];
  for (let i = 0; i < missing.length; i += 6) {
    const batch = await Promise.all(missing.slice(i, i + 6).map((id) => catalog.song({ id }).catch((error) => {
      if (error.status === 404) return null;
      throw error;
    })));
    for (const song of batch) if (song) known.set(song.id, slim(song));
  }
  return ids.map((id) => known.get(id)).filter(Boolean);
}

async function perform() {
  // A podcast episode is not a song: while one is in the queue, the queue stays on this device.
  if (!getToken() || engine.queue.items.some((item) => item.song.kind === "episode")) return;
  const revision = engine.revision;
  const remote = await sheets.queue();
  if (engine.unsynced) {
    try {
      const saved = await sheets.saveQueue({}, { ...localQueue(), baseVersion: engine.syncedVersion ?? remote.version });
      engine.syncedVersion = saved.version;
      engine.unsynced = false;
      engine.save();
      return;
    } catch (error) {
      if (error.status !== 409) throw error;
      // Another device saved since: its queue wins.
    }
  } else if (remote.version === engine.syncedVersion) {
    return;
  }
  await adopt(remote, revision);
}

/** Makes `remote` (a PlayQueue) the device's queue, unless the person changed the queue here meanwhile. */
async function adopt(remote, revision) {
  const songs = await songsFor(remote.songIds);
  // The person changed the queue here while the server's was on its way: theirs goes up next time.
  if (engine.revision !== revision || engine.unsynced) return;
  const currentId = remote.songIds[remote.currentIndex ?? -1];
  const queue = new Queue();
  queue.setMode(remote.loopMode || "list");
  queue.replace(songs, Math.max(0, songs.findIndex((song) => song.id === currentId)));
  if (currentId === undefined) queue.current = null;
  engine.adopt(queue, currentId === undefined ? 0 : remote.position || 0, remote.version);
}

/** Syncs now (one at a time); failures are left for the next try. */
export function sync() {
  if (!running) {
    running = perform().catch(() => {}).finally(() => { running = null; });
  }
  return running;
}

/** A queue saved by a device, as the event stream brings it (`queue`): the same rule as a sync. This device's
 * own save comes back too, and a queue older than the one here may arrive late: neither is applied. A newer one
 * is taken as it is when nothing changed here; when something did, a sync lets the version rule decide. */
export async function applyRemote(remote) {
  while (running) await running;
  if (engine.syncedVersion !== null && engine.syncedVersion !== undefined && remote.version <= engine.syncedVersion) return;
  if (engine.unsynced) {
    await sync();
    return;
  }
  running = adopt(remote, engine.revision).catch(() => {}).finally(() => { running = null; });
  await running;
}

/** Syncs at start, when the app comes back into view, and a moment after each change here. */
export function startSync() {
  sync();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") sync();
    else if (engine.unsynced) sync();
  });
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(sync, 1500);
  };
  engine.addEventListener("queue", () => { if (engine.unsynced) soon(); });
  engine.addEventListener("paused", soon);
}
