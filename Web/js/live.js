// The live connection: one Server-Sent Events stream (GET /v1/events) per signed-in device, outside the
// screens like the audio engine, so moving between pages keeps it open. It is opened at start when someone is
// signed in and after signing in, and closed on signing out.
//
// The stream is opened with the chat token from signing in (kept in localStorage as `cm.chat`); when there is
// none, or opening failed (it may have been refused), POST /v1/events/token gives this session a new one. The
// browser's EventSource reconnects by itself after a dropped connection, sending Last-Event-ID, so nothing is
// missed; when it gives up (a refused token, a server that answers with an error) or keeps failing, this module
// reconnects with a growing delay (1 s doubling to a minute), resuming after the last event it saw.
//
// What the events change everywhere is done here (unread badges, "I like", the queue); screens listen to
// `live` for what they show: `live.addEventListener("message", (e) => e.detail)`.
import * as store from "./store.js";
import { events as eventsAPI } from "./api.js";
import { getToken } from "./http.js";

/** The kinds the server sends (MusicCore's ServerEventKind). */
const KINDS = ["ready", "message", "read", "conversation", "notification", "queue", "likes", "reload", "replaced"];
const MAX_DELAY = 60000;
/** Errors in a row, while the browser reconnects by itself, before this module takes over with its back-off. */
const BROWSER_TRIES = 3;

class Live extends EventTarget {
  constructor() {
    super();
    /** "off", "connecting", "open" or "replaced" (another stream of this session took over). */
    this.state = "off";
    /** The id of the last event seen: where a new stream resumes. */
    this.lastEventId = null;
    /** Events received, by kind (for the curious and for tests). */
    this.received = {};
    this.source = null;
    this.userId = null;
    this.session = null;
    this.failures = 0;
    this.timer = 0;
    this.opening = false;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.emit("state", state);
  }

  /** The stored chat token of the signed-in person, if any. */
  storedToken() {
    const saved = store.load("cm.chat", null);
    return saved && saved.userId === this.userId ? saved.token : null;
  }

  /** Opens the stream for whoever is signed in (or closes it when nobody is). */
  async connect() {
    clearTimeout(this.timer);
    const user = store.get().user;
    if (!user || !getToken()) { this.close(); return; }
    if (this.session !== user.session) {
      // Another sign-in: a new stream from the start.
      this.close();
      this.session = user.session;
      this.userId = user.userId;
      this.lastEventId = null;
      this.failures = 0;
    }
    if (this.source || this.opening) return;
    this.opening = true;
    this.setState("connecting");
    try {
      // After a failure the token may be the one refused: ask for a new one (which also tells whether the
      // session itself still holds).
      let token = this.failures > 0 ? null : this.storedToken();
      if (!token) {
        try {
          token = (await eventsAPI.token({}, undefined)).chatToken;
        } catch (error) {
          // 401: the session itself ended (http.js signs this device out); else try again later.
          if (error.status !== 401) this.retry();
          else this.close();
          return;
        }
        if (store.get().user?.userId !== this.userId) return;
        store.persist("cm.chat", { userId: this.userId, token });
      }
      this.open(token);
    } finally {
      this.opening = false;
    }
  }

  open(token) {
    const source = new EventSource(eventsAPI.stream({ token, lastEventId: this.lastEventId ?? undefined }));
    this.source = source;
    let errors = 0;
    for (const kind of KINDS) {
      source.addEventListener(kind, (event) => {
        if (this.source !== source) return;
        errors = 0;
        if (event.lastEventId) this.lastEventId = event.lastEventId;
        let data = {};
        try { data = JSON.parse(event.data || "{}"); } catch { /* a malformed event carries nothing */ }
        this.received[kind] = (this.received[kind] || 0) + 1;
        this.handle(kind, data);
      });
    }
    source.addEventListener("error", () => {
      if (this.source !== source) return;
      errors += 1;
      if (source.readyState === EventSource.CLOSED || errors >= BROWSER_TRIES) {
        // Refused, or the browser keeps failing: take over with a growing delay.
        source.close();
        this.source = null;
        this.retry();
      } else {
        this.setState("connecting");
      }
    });
  }

  /** Acts on one event; resolves when what it changes everywhere is done (the queue may load songs). */
  handle(kind, data) {
    let done;
    switch (kind) {
      case "ready":
        this.failures = 0;
        this.setState("open");
        break;
      case "replaced":
        // Another stream of this same session took over (another tab or window): it gets the events now.
        this.source?.close();
        this.source = null;
        this.setState("replaced");
        break;
      default:
        done = applyEverywhere(kind, data);
    }
    this.emit(kind, data);
    return Promise.resolve(done);
  }

  /** Tries again after 1 s, 2 s, 4 s ... up to a minute (a little jitter, so devices do not come back at once). */
  retry() {
    this.setState("connecting");
    clearTimeout(this.timer);
    const delay = Math.min(MAX_DELAY, 1000 * 2 ** this.failures) * (0.8 + Math.random() * 0.4);
    this.failures += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Now, rather than after the delay (the network came back, the app came back into view). */
  soon() {
    if (this.state === "connecting" && !this.source && !this.opening && store.get().user) {
      this.failures = Math.min(this.failures, 1);
      this.connect();
    }
  }

  close() {
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
    this.setState("off");
  }
}

export const live = new Live();

/** What an event changes outside any screen: badges, hearts, the queue; `reload` reloads what is shown. */
function applyEverywhere(kind, data) {
  const me = store.get().user?.userId;
  switch (kind) {
    case "message":
      if (data.message?.sender?.id !== me) import("./badge.js").then((m) => m.refreshMessages());
      break;
    case "read":
      if (data.userId === me) import("./badge.js").then((m) => m.refreshMessages());
      break;
    case "conversation":
      import("./badge.js").then((m) => m.refreshMessages());
      break;
    case "notification":
      if (data.unread) store.set({ unread: data.unread });
      break;
    case "queue":
      return data.queue ? import("./queue-sync.js").then((m) => m.applyRemote(data.queue)) : undefined;
    case "likes": {
      if (!data.songId) break;
      const liked = new Set(store.get().liked);
      if (data.liked) liked.add(data.songId);
      else liked.delete(data.songId);
      store.set({ liked });
      break;
    }
    case "reload":
      // What happened while away is no longer kept: ask again for everything shown.
      import("./badge.js").then((m) => m.refreshUnread(true));
      import("./queue-sync.js").then((m) => m.sync());
      import("./actions.js").then((m) => m.loadLikes());
      import("./router.js").then((m) => m.refresh());
      break;
  }
}

let started = false;
/** Opens the stream now if someone is signed in, and follows signing in and out from here on. */
export function startLive() {
  if (started) return;
  started = true;
  store.watch(["user"], (state) => {
    // The same person's profile changing is no reason to take the stream back from the tab that replaced this one.
    if (state.user) {
      if (state.user.session !== live.session || live.state !== "replaced") live.connect();
    } else {
      live.close();
      live.userId = null;
      live.session = null;
      live.lastEventId = null;
    }
  });
  addEventListener("online", () => live.soon());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") live.soon(); });
  live.connect();
}
