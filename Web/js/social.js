// Pieces the social screens share: rich text with @mentions and #topics# as links, avatars, times, the
// signed-in person's blocks (loaded once a visit), and uploads with progress.
import * as store from "./store.js";
import { follows, files, accounts } from "./api.js";
import { getToken } from "./http.js";
import { t, lang } from "./i18n.js";
import { icon } from "./icons.js";
import { html } from "./ui.js";
import { media } from "./media.js";
import "./i18n-social.js";

/** `content` as markup, the server's mentions and topics drawn as links. Their ranges count UTF-16 code
 * units, as JavaScript strings do, so an emoji before a mention does not shift it. */
export function richText(content, mentions = [], topics = []) {
  const text = String(content ?? "");
  const marks = [
    ...mentions.map((m) => ({ ...m.range, href: `/user/${encodeURIComponent(m.userId)}`, cls: "mention" })),
    ...topics.map((tp) => ({ ...tp.range, href: `/topic/${encodeURIComponent(tp.id)}`, cls: "topic" })),
  ].filter((m) => m.utf16Offset >= 0 && m.utf16Offset + m.utf16Length <= text.length)
    .sort((a, b) => a.utf16Offset - b.utf16Offset);
  const parts = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.utf16Offset < at) continue;
    parts.push(text.slice(at, mark.utf16Offset));
    parts.push(html`<a class="rich-link ${mark.cls}" href="${mark.href}">${text.slice(mark.utf16Offset, mark.utf16Offset + mark.utf16Length)}</a>`);
    at = mark.utf16Offset + mark.utf16Length;
  }
  parts.push(text.slice(at));
  return html`${parts}`;
}

/** A round avatar of a person (`{ id, nickname, icon }`), or the placeholder. */
export function avatar(user, size = 40, cls = "") {
  if (user?.icon) {
    return html`<img class="av av-${size} ${cls}" src="${media(user.icon, size * 2)}" width="${size}" height="${size}" alt="" loading="lazy" decoding="async">`;
  }
  const letter = (user?.nickname || "?").trim().charAt(0).toUpperCase();
  return html`<span class="av av-ph av-${size} ${cls}" aria-hidden="true">${letter}</span>`;
}

/** "3 min ago", "yesterday"-like short times; older dates as the date. */
export function ago(iso) {
  const then = new Date(iso).getTime();
  if (!then) return "";
  const seconds = Math.max(0, (Date.now() - then) / 1000);
  if (seconds < 60) return t("justNow");
  if (seconds < 3600) return t("minutesAgo", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("hoursAgo", { n: Math.floor(seconds / 3600) });
  if (seconds < 86400 * 7) return t("daysAgo", { n: Math.floor(seconds / 86400) });
  return new Date(then).toLocaleDateString(lang() === "zh" ? "zh-CN" : "en");
}

let blocked = null;
/** The ids of the people the signed-in person blocked (one request a visit; kept up to date here). */
export async function blockedIds() {
  const user = store.get().user;
  if (!user) return new Set();
  if (!blocked) {
    blocked = follows.blocks({ size: 100 }).then((page) => new Set(page.data.map((u) => u.id)), () => {
      blocked = null;
      return new Set();
    });
  }
  return blocked;
}
export async function setBlocked(id, on) {
  const ids = await blockedIds();
  if (on) ids.add(id);
  else ids.delete(id);
}
store.watch(["user"], () => { blocked = null; });

export const PICTURE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** A picture file made at most `max` pixels on its long side (JPEG), in the browser before upload;
 * GIFs stay as they are (they may move). Rejects a file that is not a picture. */
export async function resizePicture(file, max = 1600) {
  if (!PICTURE_TYPES.includes(file.type)) throw new Error(t("notPicture", { name: file.name }));
  let bitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(t("notPicture", { name: file.name }));
  }
  if (file.type === "image/gif") return { blob: file, width: bitmap.width, height: bitmap.height };
  const scale = Math.min(1, max / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale);
  const height = Math.round(bitmap.height * scale);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d").drawImage(bitmap, 0, 0, width, height);
  bitmap.close?.();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.86));
  return { blob, width, height };
}

/** The path of the generated client's upload endpoint (a media address is built the same way). */
const uploadPath = () => new URL(files.file({ name: "x" })).pathname.replace(/[^/]+$/, "multi");

/** Uploads one picture with XMLHttpRequest (fetch cannot report upload progress); `progress(0..1)`. */
export function uploadPicture(blob, name, progress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("file", blob, name.replace(/\.\w+$/, "") + (blob.type === "image/gif" ? ".gif" : ".jpg"));
    const xhr = new XMLHttpRequest();
    xhr.open("POST", uploadPath());
    xhr.setRequestHeader("Accept", "application/json");
    const token = getToken();
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) progress(event.loaded / event.total); };
    xhr.onload = () => {
      let envelope = null;
      try { envelope = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300 && envelope?.data?.[0]) {
        progress(1);
        resolve(envelope.data[0]);
      } else {
        reject(new Error(envelope?.message || `${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new Error(t("serverOffline")));
    xhr.send(form);
  });
}

/** The signed-in person's profile with counts (for My Music and the side bar). */
export function myProfile() {
  const user = store.get().user;
  return user ? accounts.profile({ id: user.userId }) : Promise.resolve(null);
}

export function userRow(user, right = "") {
  return html`<li class="user-row"><a class="user-link" href="/user/${user.id}">${avatar(user, 44)}
    <span class="user-text"><span class="user-name">${user.nickname}</span>
    ${user.description ? html`<span class="user-sub">${user.description}</span>` : ""}</span></a>${right}</li>`;
}

export const likeIcon = (on) => icon(on ? "thumb" : "thumbLine");

/** Pull-to-refresh on touch screens: pulling the top of `root` down by 70 px calls `refresh`. */
export function pullToRefresh(root, refresh) {
  let start = null;
  const hint = document.createElement("div");
  hint.className = "pull-hint";
  hint.setAttribute("aria-hidden", "true");
  root.prepend(hint);
  root.addEventListener("touchstart", (e) => { start = scrollY <= 0 ? e.touches[0].clientY : null; }, { passive: true });
  root.addEventListener("touchmove", (e) => {
    if (start === null) return;
    const pulled = Math.max(0, Math.min(100, e.touches[0].clientY - start));
    hint.style.height = `${pulled * 0.6}px`;
    hint.classList.toggle("ready", pulled > 70);
  }, { passive: true });
  root.addEventListener("touchend", () => {
    if (start !== null && hint.classList.contains("ready")) refresh();
    start = null;
    hint.style.height = "0px";
    hint.classList.remove("ready");
  });
}
