// The app's small store: one state object, changed by `set`, watched by `watch`.
// Player time is not here (it changes every frame): read it from the audio engine.

const listeners = new Set();

const saved = (key, fallback) => {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
};

export function persist(key, value) {
  try {
    if (value === undefined || value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full disk: the app still works for this visit.
  }
}

export { saved as load };

const state = {
  /** { userId, session, nickname, icon } when signed in. */
  user: saved("cm.user", null),
  /** "system", "light" or "dark". */
  theme: saved("cm.theme", "system"),
  /** "auto", "zh" or "en". */
  lang: saved("cm.lang", "auto"),
  /** The ids of the songs in "I like", when known. */
  liked: new Set(),
  likesSheetId: null,
  online: navigator.onLine,
};

export function get() { return state; }

/** Changes some keys; listeners of those keys run once. */
export function set(patch) {
  const changed = [];
  for (const [key, value] of Object.entries(patch)) {
    if (state[key] !== value) {
      state[key] = value;
      changed.push(key);
    }
  }
  if (!changed.length) return;
  for (const entry of [...listeners]) {
    if (!entry.keys || entry.keys.some((k) => changed.includes(k))) entry.fn(state, changed);
  }
}

/** Calls `fn` when any of `keys` changes (every change when no keys); returns the way to stop. */
export function watch(keys, fn) {
  const entry = { keys, fn };
  listeners.add(entry);
  return () => listeners.delete(entry);
}
