// Small pieces every screen uses: escaping, song rows, toasts, action sheets and dialogs.
import { t, duration } from "./i18n.js";
import { icon } from "./icons.js";
import { cover } from "./media.js";

const entities = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text made safe to put in markup (what `html` does to every value it is given). */
export const esc = (value) => String(value ?? "").replace(/[&<>"']/g, (c) => entities[c]);

/** Markup as `html` makes it. Only markup passes into markup unescaped: a plain string never does. */
class Markup {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

function part(value) {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(part).join("");
  if (value === null || value === undefined || value === false) return "";
  return esc(value);
}

/** The tagged template every piece of the app's markup is written with: each interpolated value is escaped
 * unless it is markup itself (made by `html`, as icons and rows are); arrays are joined, null, undefined and
 * false are left out (but a boolean in an attribute's quotes is "true" or "false"). */
export function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) {
    // Inside an attribute's quotes a boolean is its word (aria-checked="false"); elsewhere false is nothing.
    const inAttribute = /=["']$/.test(strings[i]);
    out += (inAttribute && typeof values[i] === "boolean" ? String(values[i]) : part(values[i])) + strings[i + 1];
  }
  return new Markup(out);
}

/** Fills `element` with markup made by `html` (an array of it, or nothing: "" or null); any other value is
 * refused, so no text can become markup by mistake. */
export function setHTML(element, markup) {
  if (Array.isArray(markup) || markup === "" || markup == null) markup = html`${markup}`;
  if (!(markup instanceof Markup)) throw new TypeError("setHTML takes markup made by html``.");
  element.innerHTML = markup.text;
}

/** Adds markup made by `html` (or an array of it) to `element` at `position` ("beforeend", "afterbegin", ...). */
export function addHTML(element, markup, position = "beforeend") {
  if (Array.isArray(markup) || markup === "" || markup == null) markup = html`${markup}`;
  if (!(markup instanceof Markup)) throw new TypeError("addHTML takes markup made by html``.");
  element.insertAdjacentHTML(position, markup.text);
}

/** Puts markup made by `html` in the place of `element`. */
export function replaceWithHTML(element, markup) {
  addHTML(element, markup, "afterend");
  element.remove();
}

/** ONLY for HTML the server sanitized (a news article's `content`): never for text a person typed here.
 * It is parsed inert (DOMParser runs no scripts and loads nothing) and, as a second guard, stripped again of
 * scripts, frames, handlers and `javascript:` addresses before it is moved into `element`. */
export function setSanitizedHTML(element, sanitized) {
  const doc = new DOMParser().parseFromString(`<body>${String(sanitized ?? "")}</body>`, "text/html");
  for (const bad of doc.body.querySelectorAll("script, style, iframe, frame, object, embed, form, base, link, meta")) bad.remove();
  for (const node of doc.body.querySelectorAll("*")) {
    for (const attribute of [...node.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith("on") || name === "style" || name === "srcdoc") node.removeAttribute(attribute.name);
      else if (["href", "src", "poster", "srcset", "action", "formaction", "xlink:href"].includes(name)
        && /^\s*(javascript|data|vbscript):/i.test(attribute.value) && !(name === "src" && /^\s*data:image\//i.test(attribute.value))) {
        node.removeAttribute(attribute.name);
      }
    }
    if (node.tagName === "A") {
      node.target = "_blank";
      node.rel = "noopener noreferrer";
    }
    if (node.tagName === "IMG") {
      node.loading = "lazy";
      node.decoding = "async";
      node.referrerPolicy = "no-referrer";
    }
  }
  element.replaceChildren(...doc.body.childNodes);
}

/** Whether an address may go into an `href`: the app's own paths and web addresses, never `javascript:`. */
export function safeLink(address) {
  const text = String(address ?? "").trim();
  if (text.startsWith("/") && !text.startsWith("//")) return text;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : "";
  } catch {
    return "";
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export function artistNames(song) {
  const names = (song?.artists || []).map((a) => a.name).join(" / ");
  return names || song?.singer?.nickname || t("unknownArtist");
}

/** An <img> of a cover; `size` in CSS pixels. */
export function img(thing, size, cls = "", alt = "") {
  const src = cover(thing, size);
  if (!src) return html`<span class="img ph ${cls}" aria-hidden="true">${icon("note")}</span>`;
  return html`<img class="img ${cls}" src="${src}" width="${size}" height="${size}" alt="${alt}" loading="lazy" decoding="async">`;
}

/** One song in a list: tap to play, a button for more. */
export function songRow(song, index, { showCover = false, sub } = {}) {
  const subtitle = sub ?? [artistNames(song), song.album?.title].filter(Boolean).join(" - ");
  return html`<li class="song-row" data-index="${index}" data-id="${song.id}">
    <button class="song-main" data-action="play" type="button">
      ${showCover ? img(song, 44, "song-cover") : html`<span class="song-index">${index + 1}</span>`}
      <span class="song-playing" aria-hidden="true">${icon("volume")}</span>
      <span class="song-text"><span class="song-title">${song.title}</span>
      <span class="song-sub">${subtitle}</span></span>
      <span class="song-time">${duration(song.duration)}</span>
    </button>
    <button class="icon-btn song-more" data-action="more" type="button" aria-label="${t("more2")}: ${song.title}">${icon("more")}</button>
  </li>`;
}

/** Marks the rows of the playing song inside `root`. */
export function markPlaying(root, songId) {
  for (const row of $$(".song-row", root)) {
    const on = row.dataset.id === songId;
    row.classList.toggle("is-playing", on);
    const main = row.querySelector(".song-main");
    if (on) main?.setAttribute("aria-current", "true");
    else main?.removeAttribute("aria-current");
  }
}

export function loadingBlock() {
  return html`<div class="state-block" role="status"><span class="spinner" aria-hidden="true"></span>${t("loading")}</div>`;
}

export function errorBlock(error) {
  return html`<div class="state-block error" role="alert"><p>${error?.status === 0 ? t("serverOffline") : error?.message || t("loadFailed")}</p>
    <button class="pill-btn" data-action="retry" type="button">${t("retry")}</button></div>`;
}

export function emptyBlock(text) {
  return html`<div class="state-block empty"><span class="empty-icon" aria-hidden="true">${icon("note")}</span><p>${text}</p></div>`;
}

let toastTimer;
/** A short message at the bottom of the screen, read out by screen readers. */
export function toast(text) {
  let box = document.getElementById("toast");
  if (!box) {
    box = document.createElement("div");
    box.id = "toast";
    box.className = "toast";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 2600);
}

/** A modal dialog of class `cls` with `inner` HTML; `setup(dialog, close)` wires it; resolves to what it closes
 * with. A tap beside it closes it, unless `backdropCloses` is false (what it shows would be lost). */
export function openDialog(cls, inner, setup, { backdropCloses = true } = {}) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = cls;
    setHTML(dialog, inner);
    document.body.append(dialog);
    let value = null;
    const close = (result) => {
      value = result;
      dialog.close();
    };
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(value);
    });
    if (backdropCloses) {
      dialog.addEventListener("click", (event) => {
        if (event.target === dialog) close(null);
      });
    }
    setup(dialog, close);
    dialog.showModal();
  });
}

/** A list of choices sliding up from the bottom (a menu on wide screens); resolves to the chosen value. */
export function actionSheet({ title, subtitle, items }) {
  const rows = items.map((item, i) => html`<li><button type="button" class="sheet-item" data-i="${i}" ${item.disabled ? "disabled" : ""}>
      ${icon(item.icon || "right")}<span>${item.label}</span></button></li>`);
  return openDialog("action-sheet", html`<div class="sheet-head"><div class="sheet-title">${title}</div>
      ${subtitle ? html`<div class="sheet-sub">${subtitle}</div>` : ""}</div>
      <ul class="sheet-list" role="menu">${rows}</ul>
      <button type="button" class="sheet-cancel">${t("cancel")}</button>`, (dialog, close) => {
    dialog.addEventListener("click", (event) => {
      const button = event.target.closest(".sheet-item");
      if (button) close(items[Number(button.dataset.i)].value);
      else if (event.target.closest(".sheet-cancel")) close(null);
    });
  });
}

/** Asks for one line of text; resolves to it, or null. */
export function promptDialog({ title, placeholder = "", ok = t("ok"), maxLength = 40 }) {
  return openDialog("modal", html`<form method="dialog" class="modal-body"><h2 class="modal-title">${title}</h2>
      <input class="text-input" name="value" placeholder="${placeholder}" maxlength="${maxLength}" required autocomplete="off">
      <div class="modal-actions"><button type="button" class="text-btn" value="cancel">${t("cancel")}</button>
      <button class="pill-btn primary" value="ok">${ok}</button></div></form>`, (dialog, close) => {
    const form = dialog.querySelector("form");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = form.value.value.trim();
      if (value) close(value);
    });
    dialog.querySelector(".text-btn").addEventListener("click", () => close(null));
  });
}

export function confirmDialog(text) {
  return openDialog("modal", html`<div class="modal-body"><p class="modal-text">${text}</p>
      <div class="modal-actions"><button type="button" class="text-btn" data-v="0">${t("cancel")}</button>
      <button type="button" class="pill-btn primary" data-v="1">${t("ok")}</button></div></div>`, (dialog, close) => {
    dialog.addEventListener("click", (event) => {
      const button = event.target.closest("[data-v]");
      if (button) close(button.dataset.v === "1");
    });
  });
}

/** Runs `load` and renders its answer with `render` into `root`, with loading and retry states. */
export async function loadInto(root, load, render) {
  setHTML(root, loadingBlock());
  try {
    const data = await load();
    if (!root.isConnected) return;
    render(data);
  } catch (error) {
    if (!root.isConnected) return;
    setHTML(root, errorBlock(error));
    root.querySelector("[data-action=retry]")?.addEventListener("click", () => loadInto(root, load, render));
  }
}
