// The play queue and its order, as MusicCore's PlayOrder keeps it: `list` plays the list as given, `single`
// plays one song again when it ends, `shuffle` plays every song once before any repeats and "previous"
// walks back through what actually played. Entries have keys, so one song may be in the list twice.

export const MODES = ["list", "single", "shuffle"];
const HISTORY_LIMIT = 1000;

export class Queue {
  constructor() {
    /** Entries in list order: { key, song }. */
    this.items = [];
    this.current = null;
    this.mode = "list";
    this.unplayed = [];
    this.history = [];
    this.cursor = 0;
    this.lastKey = 0;
  }

  static from(saved) {
    const queue = new Queue();
    if (saved && Array.isArray(saved.items)) Object.assign(queue, saved);
    if (!MODES.includes(queue.mode)) queue.mode = "list";
    return queue;
  }

  toJSON() {
    const { items, current, mode, unplayed, history, cursor, lastKey } = this;
    return { items, current, mode, unplayed, history, cursor, lastKey };
  }

  get length() { return this.items.length; }
  get currentIndex() { return this.items.findIndex((item) => item.key === this.current); }
  get currentSong() { return this.items.find((item) => item.key === this.current)?.song ?? null; }
  indexOf(key) { return this.items.findIndex((item) => item.key === key); }
  songOf(key) { return this.items.find((item) => item.key === key)?.song ?? null; }

  /** Replaces the list; `start` (an index) becomes current. */
  replace(songs, start = 0) {
    this.items = songs.map((song) => ({ key: ++this.lastKey, song }));
    this.current = this.items[start]?.key ?? null;
    this.restartShuffle();
  }

  append(songs) {
    const added = songs.map((song) => ({ key: ++this.lastKey, song }));
    this.items.push(...added);
    if (this.mode === "shuffle") this.unplayed.push(...added.map((item) => item.key));
    if (this.current === null && added.length) this.current = added[0].key;
    return added;
  }

  /** Adds a song right after the current one, to play next in every mode. */
  insertNext(song) {
    const item = { key: ++this.lastKey, song };
    const index = this.currentIndex;
    this.items.splice(index >= 0 ? index + 1 : this.items.length, 0, item);
    if (this.current === null) {
      this.current = item.key;
      this.restartShuffle();
    } else if (this.mode === "shuffle") {
      this.history.splice(this.cursor + 1, 0, item.key);
      this.trimHistory();
    }
    return item;
  }

  /** Takes an entry out; when it was current the one that plays next becomes current. Returns whether
   * current changed. */
  remove(key) {
    const index = this.indexOf(key);
    if (index < 0) return false;
    const wasCurrent = key === this.current;
    const following = this.items.length > 1 ? this.items[(index + 1) % this.items.length].key : null;
    this.items.splice(index, 1);
    this.unplayed = this.unplayed.filter((k) => k !== key);
    let removedAt = -1;
    const position = this.history.indexOf(key);
    if (position >= 0) {
      this.history.splice(position, 1);
      removedAt = position;
      if (position < this.cursor) this.cursor -= 1;
    }
    if (!wasCurrent) return false;
    if (!this.items.length) {
      this.clear();
      return true;
    }
    if (this.mode === "shuffle") {
      this.current = null;
      this.cursor = (removedAt >= 0 ? removedAt : this.history.length) - 1;
      this.current = this.advanceShuffle();
    } else {
      this.current = following;
    }
    return true;
  }

  /** Moves an entry in list order (a shuffle's order is its own). */
  move(from, to) {
    if (from < 0 || to < 0 || from >= this.items.length || to >= this.items.length || from === to) return false;
    const [item] = this.items.splice(from, 1);
    this.items.splice(to, 0, item);
    return true;
  }

  clear() {
    this.items = [];
    this.current = null;
    this.unplayed = [];
    this.history = [];
    this.cursor = 0;
  }

  setMode(mode) {
    if (mode === this.mode || !MODES.includes(mode)) return;
    this.mode = mode;
    this.restartShuffle();
  }

  /** Makes `key` current, as when a person taps a song. */
  select(key) {
    if (this.indexOf(key) < 0 || key === this.current) return;
    this.current = key;
    if (this.mode !== "shuffle") return;
    this.unplayed = this.unplayed.filter((k) => k !== key);
    if (!this.history.length) {
      this.history = [key];
      this.cursor = 0;
    } else {
      this.history.splice(Math.min(this.cursor + 1, this.history.length));
      this.history.push(key);
      this.cursor = this.history.length - 1;
      this.trimHistory();
    }
  }

  /** Moves on: `ended` when the song finished by itself (`single` then plays it again). Wraps around. */
  next(ended = false) {
    if (!this.items.length) return null;
    if (this.mode === "single" && ended && this.current !== null) return this.current;
    if (this.mode === "shuffle") {
      this.current = this.advanceShuffle();
    } else {
      const index = this.currentIndex;
      this.current = this.items[index >= 0 ? (index + 1) % this.items.length : 0].key;
    }
    return this.current;
  }

  previous() {
    if (!this.items.length) return null;
    if (this.mode !== "shuffle") {
      const index = this.currentIndex;
      const n = this.items.length;
      this.current = this.items[index >= 0 ? (index - 1 + n) % n : 0].key;
    } else if (this.cursor > 0 && this.history.length > 1) {
      this.cursor -= 1;
      this.current = this.history[this.cursor];
    } else {
      if (!this.unplayed.length) this.unplayed = this.keysBut(this.current);
      if (!this.unplayed.length) return this.current;
      const key = this.unplayed.splice(Math.floor(Math.random() * this.unplayed.length), 1)[0];
      this.history.unshift(key);
      this.cursor = 0;
      this.current = key;
      this.trimHistory();
    }
    return this.current;
  }

  /** What `next(true)` would move to, without moving: the song to preload for a gapless start. */
  upcoming() {
    const copy = Queue.from(structuredClone(this.toJSON()));
    const key = copy.next(true);
    // A shuffle's pick must then be the one taken: keep the copy's draw.
    return { key, state: copy.toJSON() };
  }

  keysBut(key) { return this.items.map((item) => item.key).filter((k) => k !== key); }

  restartShuffle() {
    if (this.mode !== "shuffle") {
      this.unplayed = [];
      this.history = [];
      this.cursor = 0;
      return;
    }
    this.unplayed = this.keysBut(this.current);
    this.history = this.current === null ? [] : [this.current];
    this.cursor = 0;
  }

  advanceShuffle() {
    if (this.cursor + 1 < this.history.length) {
      this.cursor += 1;
      return this.history[this.cursor];
    }
    if (!this.unplayed.length) this.unplayed = this.keysBut(this.current);
    if (!this.unplayed.length) return this.current ?? this.items[0]?.key ?? null;
    const key = this.unplayed.splice(Math.floor(Math.random() * this.unplayed.length), 1)[0];
    this.history.push(key);
    this.cursor = this.history.length - 1;
    this.trimHistory();
    return key;
  }

  trimHistory() {
    const excess = this.history.length - HISTORY_LIMIT;
    if (excess <= 0) return;
    this.history.splice(0, excess);
    this.cursor = Math.max(0, this.cursor - excess);
  }
}
