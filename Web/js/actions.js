// What a person can do with a song anywhere in the app: play next, queue, like, add to a sheet, download.
import { sheets } from "./api.js";
import * as store from "./store.js";
import { engine, streamURL } from "./player.js";
import * as downloads from "./downloads.js";
import { navigate } from "./router.js";
import { t } from "./i18n.js";
import { actionSheet, promptDialog, toast, artistNames } from "./ui.js";

export const signedIn = () => !!store.get().user;

/** Sends the person to sign in (and back here after) when nobody is signed in; true when someone is. */
export function requireSignIn() {
  if (signedIn()) return true;
  toast(t("signInFirst"));
  navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  return false;
}

/** Loads which songs are in "I like" (and that sheet's id) for the signed-in person. */
export async function loadLikes() {
  const user = store.get().user;
  if (!user) {
    store.set({ liked: new Set(), likesSheetId: null });
    return;
  }
  try {
    const created = await sheets.created({ id: user.userId, size: 100 });
    const likes = created.data.find((sheet) => sheet.kind === "likes");
    if (!likes) return;
    const page = await sheets.songs({ id: likes.id, size: 500 });
    store.set({ likesSheetId: likes.id, liked: new Set(page.data.map((song) => song.id)) });
  } catch {
    // Offline or signed out elsewhere: likes show once they load.
  }
}

export const isLiked = (song) => !!song && store.get().liked.has(song.id);

export async function toggleLike(song) {
  if (!song || song.kind === "episode" || !requireSignIn()) return;
  const liked = new Set(store.get().liked);
  const was = liked.has(song.id);
  try {
    if (was) {
      await sheets.unlikeSong({ id: song.id });
      liked.delete(song.id);
    } else {
      const sheet = await sheets.likeSong({ id: song.id });
      liked.add(song.id);
      if (sheet?.id) store.set({ likesSheetId: sheet.id });
    }
    store.set({ liked });
    toast(t(was ? "unliked" : "liked"));
  } catch (error) {
    toast(error.message);
  }
}

/** Asks which of my sheets (or a new one) gets `songs`. */
export async function addToSheet(songs) {
  if (!requireSignIn()) return;
  const user = store.get().user;
  let mine;
  try {
    mine = (await sheets.created({ id: user.userId, size: 100 })).data.filter((s) => s.kind !== "likes");
  } catch (error) {
    toast(error.message);
    return;
  }
  const choice = await actionSheet({
    title: t("addToSheet"),
    items: [
      { label: t("newSheet"), icon: "plus", value: "new" },
      ...mine.map((sheet) => ({ label: `${sheet.title} · ${t("tracks", { n: sheet.songsCount })}`, icon: "sheet", value: sheet.id })),
    ],
  });
  if (!choice) return;
  try {
    let id = choice;
    if (choice === "new") {
      const title = await promptDialog({ title: t("newSheet"), placeholder: t("sheetTitle"), ok: t("create") });
      if (!title) return;
      id = (await sheets.create({}, { title })).id;
    }
    await sheets.addSongs({ id }, { songIds: songs.map((song) => song.id) });
    toast(t("addedToSheet"));
  } catch (error) {
    toast(error.message);
  }
}

export async function download(song) {
  if (!song || downloads.isDownloaded(song.id)) return;
  try {
    await downloads.download(song, streamURL(song));
    toast(t("downloadDone", { title: song.title }));
  } catch (error) {
    toast(`${t("downloadFailed", { title: song.title })} ${error.message || ""}`.trim());
  }
}

/** The "more" menu of a song in a list; `extra` adds entries (like "remove from sheet"). */
export async function songMenu(song, extra = []) {
  const items = [
    { label: t("playNext"), icon: "playNext", value: "next" },
    { label: t("addToQueue"), icon: "addList", value: "queue" },
    { label: t("addToSheet"), icon: "plus", value: "sheet" },
    { label: isLiked(song) ? t("unlike") : t("like"), icon: isLiked(song) ? "heartFill" : "heart", value: "like" },
    downloads.isDownloaded(song.id)
      ? { label: t("removeDownload"), icon: "trash", value: "undownload" }
      : { label: t("download"), icon: "download", value: "download" },
    ...(song.album ? [{ label: `${t("album")}: ${song.album.title}`, icon: "disc", value: "album" }] : []),
    ...(song.artists?.[0] ? [{ label: `${t("artist")}: ${artistNames(song)}`, icon: "mic", value: "artist" }] : []),
    ...extra,
  ];
  const choice = await actionSheet({ title: song.title, subtitle: artistNames(song), items });
  switch (choice) {
    case "next":
      engine.insertNext(song);
      toast(t("willPlayNext"));
      break;
    case "queue":
      engine.append([song]);
      toast(t("addedToQueue"));
      break;
    case "sheet": return addToSheet([song]);
    case "like": return toggleLike(song);
    case "download": return download(song);
    case "undownload":
      await downloads.remove(song.id);
      toast(t("deleted"));
      break;
    case "album": navigate(`/album/${song.album.id}`); break;
    case "artist": navigate(`/artist/${song.artists[0].id}`); break;
    default: return choice;
  }
  return null;
}

/** Wires a song list: tapping a row plays the list from it; "more" opens the song's menu. */
/** Plays a tapped row: the whole list from it (the queue replaced), or with `insert` that one song after the
 * current one, keeping the queue. */
export function bindSongList(root, getSongs, extraFor, { insert = false } = {}) {
  root.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-action]");
    const row = event.target.closest(".song-row");
    if (!button || !row || !root.contains(row)) return;
    const songs = getSongs();
    const index = Number(row.dataset.index);
    const song = songs[index];
    if (!song) return;
    if (button.dataset.action === "play") {
      if (insert) {
        if (engine.song?.id === song.id) engine.toggle();
        else engine.playNow(song);
      } else if (engine.song?.id === song.id && engine.queue.length === songs.length) engine.toggle();
      else engine.playList(songs, index);
    } else if (button.dataset.action === "more") {
      const result = await songMenu(song, extraFor ? extraFor(song) : []);
      if (result && extraFor) root.dispatchEvent(new CustomEvent("song-extra", { detail: { song, index, value: result } }));
    }
  });
}
