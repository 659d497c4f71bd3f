// Who is signed in on this device: the token lives in http.js, the person in the store (and localStorage).
import * as store from "./store.js";
import { setToken } from "./http.js";
import { accounts } from "./api.js";

/** Keeps a sign-in answer ({ userId, session, chatToken }) and loads the profile to show. The chat token
 * (which opens the live event stream, live.js) is kept beside the person. */
export async function signIn(result) {
  setToken(result.session);
  store.persist("cm.chat", result.chatToken ? { userId: result.userId, token: result.chatToken } : null);
  let profile = null;
  try {
    profile = await accounts.profile({ id: result.userId });
  } catch {
    // The profile can wait: the session is what matters.
  }
  const user = { userId: result.userId, session: result.session, nickname: profile?.nickname ?? "", icon: profile?.icon ?? null };
  store.persist("cm.user", user);
  store.set({ user });
  return user;
}

/** Forgets the session on this device (the server is told separately, when it can be). */
export function signOutHere() {
  store.persist("cm.user", null);
  store.persist("cm.chat", null);
  // The articles kept for reading offline are this person's (news.js).
  store.persist("cm.newsKept", null);
  setToken(null);
  store.set({ user: null, liked: new Set(), likesSheetId: null });
  if ("caches" in globalThis) {
    caches.delete("cm-api").catch(() => {});
    caches.delete("cm-news").catch(() => {});
  }
}

export async function signOut() {
  try {
    await accounts.logout();
  } catch {
    // Offline or already signed out: forget it here anyway.
  }
  signOutHere();
}
