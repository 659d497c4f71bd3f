// The unread notifications count behind the badges of the tab bar and the side bar: asked for at start,
// when the app comes back into view (focus) and after the inbox marks things read. Live updates come with
// the real-time issue.
import * as store from "./store.js";
import { notifications } from "./api.js";
import "./i18n-social.js";

let asking = null;
let last = 0;

/** Asks the server for the unread counts (at most once every 2 s unless `force`). */
export function refreshUnread(force = false) {
  if (!store.get().user) { store.set({ unread: null }); return Promise.resolve(null); }
  if (asking) return asking;
  if (!force && Date.now() - last < 2000) return Promise.resolve(store.get().unread);
  last = Date.now();
  asking = notifications.unread().then((unread) => {
    store.set({ unread });
    return unread;
  }, () => null).finally(() => { asking = null; });
  return asking;
}

/** Draws the count into every `.badge-slot`. */
export function drawBadges() {
  const n = store.get().unread?.count || 0;
  for (const slot of document.querySelectorAll(".badge-slot")) {
    slot.textContent = n ? (n > 99 ? "99+" : String(n)) : "";
    slot.hidden = !n;
  }
}

export function startBadges() {
  store.watch(["unread"], drawBadges);
  store.watch(["user"], () => refreshUnread(true));
  addEventListener("focus", () => refreshUnread());
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refreshUnread(); });
  refreshUnread(true);
}
