// The unread counts behind the badges: notifications (`store.unread`, {count, kinds}) and messages
// (`store.messagesUnread`, {count, conversations}). Asked for at start and when the app comes back into view;
// the event stream (live.js) keeps them current in between: a notification carries its new count, a message
// or a read mark has the messages' count asked for again.
//
// A `.badge-slot` shows `data-badge` "notifications", "messages" or (without it) both together.
import * as store from "./store.js";
import { notifications, messages } from "./api.js";
import "./i18n-social.js";

let asking = null;
let last = 0;

/** Asks the server for the unread counts (at most once every 2 s unless `force`). */
export function refreshUnread(force = false) {
  if (!store.get().user) { store.set({ unread: null, messagesUnread: null }); return Promise.resolve(null); }
  if (asking) return asking;
  if (!force && Date.now() - last < 2000) return Promise.resolve(store.get().unread);
  last = Date.now();
  asking = Promise.allSettled([notifications.unread(), messages.unread()]).then(([n, m]) => {
    if (!store.get().user) return null;
    const patch = {};
    if (n.status === "fulfilled") patch.unread = n.value;
    if (m.status === "fulfilled") patch.messagesUnread = m.value;
    store.set(patch);
    return store.get().unread;
  }).finally(() => { asking = null; });
  return asking;
}

let messagesTimer = 0;
/** Asks for the messages' unread count again, soon (events often come in bursts). */
export function refreshMessages() {
  clearTimeout(messagesTimer);
  messagesTimer = setTimeout(() => {
    if (!store.get().user) return;
    messages.unread().then((unread) => { if (store.get().user) store.set({ messagesUnread: unread }); }, () => {});
  }, 150);
}

const label = (n) => (n > 99 ? "99+" : String(n));

/** Draws the counts into every `.badge-slot`. */
export function drawBadges() {
  const notes = store.get().unread?.count || 0;
  const chats = store.get().messagesUnread?.count || 0;
  for (const slot of document.querySelectorAll(".badge-slot")) {
    const kind = slot.dataset.badge;
    const n = kind === "notifications" ? notes : kind === "messages" ? chats : notes + chats;
    slot.textContent = n ? label(n) : "";
    slot.hidden = !n;
  }
}

export function startBadges() {
  store.watch(["unread", "messagesUnread"], drawBadges);
  store.watch(["user"], () => refreshUnread(true));
  addEventListener("focus", () => refreshUnread());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refreshUnread(); });
  refreshUnread(true);
}
