// News (issue 32): channel tabs with unread badges, the list as news apps draw it (one picture on the right,
// three below the title, or text only; read rows greyed), load-more by cursor and pull-to-refresh by `since`,
// per-row hide and save, mark all read, the saved list, and the article page (sanitized content, inline
// videos, pictures full-screen, share). The last opened and the saved articles are kept for reading offline.
import { news } from "../api.js";
import "../i18n-news.js";
import { t } from "../i18n.js";
import { back } from "../router.js";
import * as store from "../store.js";
import { setHTML, addHTML, html, setSanitizedHTML, loadingBlock, errorBlock, emptyBlock, toast, safeLink, actionSheet, openDialog, confirmDialog } from "../ui.js";
import { icon } from "../icons.js";
import { requireSignIn } from "../actions.js";
import { ago, pullToRefresh } from "../social.js";

const PAGE_SIZE = 20;
/** The Cache Storage the service worker reads kept articles and their pictures from (it never trims it). */
const CACHE = "cm-news";
const KEPT = "cm.newsKept";
/** How many opened (not saved) articles stay readable offline. */
const LAST_OPENED = 20;


/** Articles opened on this visit: read in every list, even one answered before the read mark arrived. */
const readHere = new Set();

const rowsOf = (page) => (Array.isArray(page) ? page : page?.list ?? page?.data ?? page?.channels ?? []);

// ---------- Kept articles (offline reading) ----------

/** { [id]: { row, saved, at } }: what is kept, with the row to list it offline. */
function kept() { return store.load(KEPT, {}); }

/** Keeps `article` (its API answer, as the worker will be asked for it, and its pictures) in the news cache,
 * then forgets opened articles beyond the last LAST_OPENED that are not saved. */
async function keep(article) {
  const all = kept();
  const { content, videos, ...row } = article;
  all[article.id] = { row, saved: !!article.saved, at: Date.now() };
  const dropped = [];
  const opened = Object.entries(all).filter(([, k]) => !k.saved).sort((a, b) => b[1].at - a[1].at);
  for (const [id] of opened.slice(LAST_OPENED)) {
    dropped.push(id);
    delete all[id];
  }
  store.persist(KEPT, all);
  if (!("caches" in globalThis)) return;
  try {
    const cache = await caches.open(CACHE);
    const url = articleAddress(article.id);
    await cache.put(url, new Response(JSON.stringify({ status: 200, message: "", data: article }),
      { headers: { "Content-Type": "application/json; charset=utf-8" } }));
    const pictures = new Set([...(article.images || []), ...(videos || []).map((v) => v.poster).filter(Boolean)]);
    const doc = new DOMParser().parseFromString(`<body>${content || ""}</body>`, "text/html");
    for (const image of doc.querySelectorAll("img[src]")) pictures.add(image.getAttribute("src"));
    await Promise.all([...pictures].map(async (src) => {
      const address = new URL(src, location.href);
      if (address.origin !== location.origin || (await cache.match(address.href))) return;
      try {
        const response = await fetch(address.href);
        if (response.ok) await cache.put(address.href, response);
      } catch {
        // Offline already: the picture is kept next time.
      }
    }));
    for (const id of dropped) await cache.delete(articleAddress(id));
  } catch {
    // No Cache Storage (private mode): the article is read online only.
  }
}

function rememberSaved(article, saved) {
  const all = kept();
  if (all[article.id]) {
    all[article.id].saved = saved;
    all[article.id].row = { ...all[article.id].row, saved };
    store.persist(KEPT, all);
  }
  if (saved) news.article({ id: article.id }).then(keep).catch(() => {});
}

const articleAddress = (id) => new URL(`/v1/news/articles/${encodeURIComponent(id)}`, location.href).href;

// ---------- Rows ----------

function when(row) { return row.publishedAt ? ago(row.publishedAt) : ""; }

function articleRow(a) {
  const pictures = (a.images || []).slice(0, 3);
  const meta = html`<span class="news-meta">${[a.sourceTitle, when(a)].filter(Boolean).join(" · ")}${a.hasVideo ? html` <span class="news-video-mark">${icon("video")}<span class="visually-hidden">${t("newsHasVideo")}</span></span>` : ""}${a.saved ? html` <span class="news-saved-mark">${icon("star")}<span class="visually-hidden">${t("newsSaved")}</span></span>` : ""}</span>`;
  const picture = (src) => html`<img class="news-pic" src="${src}" alt="" loading="lazy" decoding="async" referrerpolicy="no-referrer">`;
  const kind = pictures.length >= 3 ? "three" : pictures.length ? "one" : "plain";
  return html`<li class="news-row row-${kind}${a.read || readHere.has(String(a.id)) ? " is-read" : ""}" data-id="${a.id}">
    <a class="news-link" href="/news/article/${a.id}">
      <span class="news-text"><span class="news-title">${a.title}</span>
        ${kind === "three" ? html`<span class="news-pics">${pictures.map(picture)}</span>` : ""}
        ${meta}</span>
      ${kind === "one" ? picture(pictures[0]) : ""}
    </a>
    <button class="icon-btn news-more" type="button" aria-label="${t("more2")}: ${a.title}">${icon("more")}</button></li>`;
}

/** The hide / save / share menu of a row; `changed(row)` redraws it, `gone()` removes it. */
async function rowMenu(a, { changed, gone }) {
  const choice = await actionSheet({
    title: a.title, subtitle: a.sourceTitle,
    items: [
      { value: "save", icon: "star", label: a.saved ? t("newsUnsave") : t("newsSave") },
      { value: "share", icon: "send", label: t("newsShare") },
      { value: "hide", icon: "close", label: t("newsHide") },
    ],
  });
  try {
    if (choice === "save") {
      await news.markSaved({ id: a.id }, { saved: !a.saved });
      a.saved = !a.saved;
      rememberSaved(a, a.saved);
      toast(a.saved ? t("newsSavedToast") : t("newsUnsavedToast"));
      changed(a);
    } else if (choice === "hide") {
      await news.markHidden({ id: a.id }, { hidden: true });
      toast(t("newsHiddenToast"));
      gone();
    } else if (choice === "share") {
      share(a);
    }
  } catch (error) {
    toast(error.message);
  }
}

/** The Web Share sheet where there is one, else the link copied. */
async function share(a) {
  const url = safeLink(a.url) || new URL(`/news/article/${a.id}`, location.href).href;
  if (navigator.share) {
    try {
      await navigator.share({ title: a.title, url });
      return;
    } catch (error) {
      if (error?.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast(t("newsLinkCopied"));
  } catch {
    await openDialog("modal", html`<div class="modal-body"><h2 class="modal-title">${t("newsShare")}</h2>
      <input class="text-input share-link" readonly value="${url}" aria-label="${t("newsShare")}">
      <div class="modal-actions"><button type="button" class="pill-btn primary" data-v="1">${t("ok")}</button></div></div>`, (dialog, close) => {
      dialog.querySelector(".share-link").select();
      dialog.querySelector("[data-v]").addEventListener("click", () => close(true));
    });
  }
}

/** A list of rows in `list` (an <ol>) kept in `rows`, with row menus and read marks from here. */
function bindRows(list, rows) {
  list.addEventListener("click", (event) => {
    const button = event.target.closest(".news-more");
    if (!button) return;
    const li = button.closest(".news-row");
    const a = rows.find((r) => String(r.id) === li.dataset.id);
    if (!a) return;
    rowMenu(a, {
      changed: (row) => {
        const fresh = list.querySelector(`.news-row[data-id="${CSS.escape(String(row.id))}"]`);
        if (fresh) {
          addHTML(fresh, articleRow(row), "afterend");
          fresh.remove();
        }
      },
      gone: () => {
        rows.splice(rows.indexOf(a), 1);
        li.remove();
      },
    });
  });
}

function topBar(root, title, actions = "", { backTo = null } = {}) {
  setHTML(root, html`<header class="top-bar news-bar">
      ${backTo ? html`<button class="icon-btn back-link" type="button" aria-label="${t("back")}">${icon("back")}</button>` : ""}
      <h1 class="top-title">${title}</h1>${actions}</header><div class="news"></div>`);
  root.querySelector(".back-link")?.addEventListener("click", () => back(backTo));
  return root.querySelector(".news");
}

// ---------- Channels ----------

async function channelsScreen(root, query) {
  if (!store.get().user) {
    const box = topBar(root, t("news"));
    setHTML(box, html`<div class="state-block empty"><p>${t("newsSignIn")}</p>
      <a class="pill-btn primary" href="/login">${t("signIn")}</a></div>`);
    return;
  }
  const box = topBar(root, t("news"), html`<a class="icon-btn" href="/news/saved" aria-label="${t("newsSavedList")}">${icon("star")}</a>`);
  setHTML(box, loadingBlock());
  let channels;
  try {
    channels = rowsOf(await news.channels());
  } catch (error) {
    setHTML(box, errorBlock(error));
    box.querySelector("[data-action=retry]")?.addEventListener("click", () => channelsScreen(root, query));
    return;
  }
  if (!root.isConnected) return;
  if (!channels.length) {
    setHTML(box, emptyBlock(t("newsNoChannels")));
    return;
  }
  channels.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  let current = channels.find((c) => String(c.id) === query.get("c")) ?? channels[0];
  const badge = (c) => c.unreadCount > 0
    ? html`<span class="news-unread" aria-label="${t("newsUnread", { n: c.unreadCount })}">${c.unreadCount >= 999 ? "999+" : c.unreadCount}</span>` : "";
  setHTML(box, html`<nav class="news-tabs" aria-label="${t("newsChannels")}">${channels.map((c) => html`<a class="news-tab" href="/news?c=${c.id}" data-id="${c.id}"
      ${String(c.id) === String(current.id) ? html`aria-current="page"` : ""}><span>${c.title}</span>${badge(c)}</a>`)}</nav>
    <div class="news-tools"><button class="pill-btn news-refresh" type="button">${icon("history")}${t("newsRefresh")}</button>
      <button class="pill-btn news-read-all" type="button">${icon("done")}${t("newsReadAll")}</button></div>
    <div class="news-body"></div>`);
  box.querySelector(`.news-tab[data-id="${CSS.escape(String(current.id))}"]`)?.scrollIntoView({ block: "nearest", inline: "center" });
  const body = box.querySelector(".news-body");
  const drawBadge = (c) => {
    const tab = box.querySelector(`.news-tab[data-id="${CSS.escape(String(c.id))}"]`);
    if (tab) setHTML(tab, html`<span>${c.title}</span>${badge(c)}`);
  };
  let rows = [];
  let next = null;
  let newest = null;
  let loading = false;
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) more();
  }, { rootMargin: "400px" });
  const drawEnd = () => {
    const end = body.querySelector(".news-end");
    if (!end) return;
    setHTML(end, next ? html`<button class="pill-btn news-load-more" type="button">${t("newsLoadMore")}</button>`
      : rows.length ? html`<span class="news-end-text">${t("newsNoMore")}</span>` : "");
    if (next) observer.observe(end);
    else observer.unobserve(end);
  };
  const first = async () => {
    setHTML(body, loadingBlock());
    try {
      const page = await news.articles({ id: current.id, size: PAGE_SIZE });
      if (!root.isConnected) return;
      rows = rowsOf(page);
      next = page.next ?? null;
      newest = page.newest ?? null;
      setHTML(body, rows.length ? html`<ol class="news-list">${rows.map(articleRow)}</ol><div class="news-end"></div>` : emptyBlock(t("newsEmpty")));
      if (rows.length) bindRows(body.querySelector(".news-list"), rows);
      drawEnd();
    } catch (error) {
      if (!root.isConnected) return;
      setHTML(body, errorBlock(error));
      body.querySelector("[data-action=retry]")?.addEventListener("click", first);
    }
  };
  async function more() {
    if (!next || loading) return;
    loading = true;
    try {
      const page = await news.articles({ id: current.id, size: PAGE_SIZE, cursor: next });
      const known = new Set(rows.map((r) => String(r.id)));
      const fresh = rowsOf(page).filter((r) => !known.has(String(r.id)));
      rows.push(...fresh);
      next = page.next ?? null;
      addHTML(body.querySelector(".news-list"), fresh.map(articleRow));
      drawEnd();
    } catch (error) {
      toast(error.message);
    } finally {
      loading = false;
    }
  }
  const refresh = async () => {
    if (!newest || !body.querySelector(".news-list")) return first();
    try {
      const page = await news.articles({ id: current.id, size: PAGE_SIZE, since: newest });
      const known = new Set(rows.map((r) => String(r.id)));
      const fresh = rowsOf(page).filter((r) => !known.has(String(r.id)));
      newest = page.newest ?? newest;
      rows.unshift(...fresh);
      if (fresh.length) addHTML(body.querySelector(".news-list"), fresh.map(articleRow), "afterbegin");
      toast(fresh.length ? t("newsNew", { n: fresh.length }) : t("newsNoNew"));
      const listed = rowsOf(await news.channels());
      for (const c of Array.isArray(listed) ? listed : []) drawBadge(c);
    } catch (error) {
      toast(error.message);
    }
  };
  body.addEventListener("click", (event) => {
    if (event.target.closest(".news-load-more")) more();
  });
  box.querySelector(".news-refresh").addEventListener("click", refresh);
  box.querySelector(".news-read-all").addEventListener("click", async () => {
    if (!(await confirmDialog(t("newsReadAllAsk", { channel: current.title })))) return;
    try {
      await news.readAll({ id: current.id }, rows.length ? { upTo: rows[0].id } : {});
      for (const r of rows) r.read = true;
      for (const li of body.querySelectorAll(".news-row")) li.classList.add("is-read");
      current.unreadCount = 0;
      drawBadge(current);
      toast(t("newsAllRead"));
    } catch (error) {
      toast(error.message);
    }
  });
  pullToRefresh(body, refresh);
  await first();
  return () => observer.disconnect();
}

// ---------- Saved ----------

async function savedScreen(root) {
  if (!requireSignIn()) return;
  const box = topBar(root, t("newsSavedList"), "", { backTo: "/news" });
  setHTML(box, loadingBlock());
  let rows;
  let next = null;
  try {
    const page = await news.saved({ size: PAGE_SIZE });
    rows = rowsOf(page);
    next = page.next ?? null;
  } catch (error) {
    // Offline: the saved articles this device kept.
    rows = Object.values(kept()).filter((k) => k.saved).sort((a, b) => b.at - a.at).map((k) => k.row);
    if (!rows.length) {
      if (!root.isConnected) return;
      setHTML(box, errorBlock(error));
      box.querySelector("[data-action=retry]")?.addEventListener("click", () => savedScreen(root));
      return;
    }
  }
  if (!root.isConnected) return;
  setHTML(box, rows.length ? html`<ol class="news-list">${rows.map(articleRow)}</ol>
    ${next ? html`<div class="news-end"><button class="pill-btn news-load-more" type="button">${t("newsLoadMore")}</button></div>` : ""}` : emptyBlock(t("newsNoSaved")));
  if (!rows.length) return;
  bindRows(box.querySelector(".news-list"), rows);
  box.querySelector(".news-load-more")?.addEventListener("click", async (event) => {
    try {
      const page = await news.saved({ size: PAGE_SIZE, cursor: next });
      rows.push(...rowsOf(page));
      addHTML(box.querySelector(".news-list"), rowsOf(page).map(articleRow));
      next = page.next ?? null;
      if (!next) event.target.closest(".news-end").remove();
    } catch (error) {
      toast(error.message);
    }
  });
}

// ---------- Article ----------

function fullScreen(src, alt) {
  return openDialog("news-viewer", html`<img src="${src}" alt="${alt}" referrerpolicy="no-referrer">
    <button class="icon-btn news-viewer-close" type="button" aria-label="${t("close")}">${icon("close")}</button>`, (dialog, close) => {
    dialog.addEventListener("click", () => close(null));
  });
}

async function articleScreen(root, id) {
  if (!requireSignIn()) return;
  const box = topBar(root, t("news"), "", { backTo: "/news" });
  setHTML(box, loadingBlock());
  let a;
  try {
    a = await news.article({ id });
  } catch (error) {
    if (!root.isConnected) return;
    setHTML(box, errorBlock(error));
    box.querySelector("[data-action=retry]")?.addEventListener("click", () => articleScreen(root, id));
    return;
  }
  if (!root.isConnected) return;
  const original = safeLink(a.url);
  const videos = (a.videos || []).filter((v) => safeLink(v.url));
  const drawActions = () => html`<button class="pill-btn news-save${a.saved ? " on" : ""}" type="button" aria-pressed="${!!a.saved}">${icon("star")}${a.saved ? t("newsSaved") : t("newsSave")}</button>
    <button class="pill-btn news-share" type="button">${icon("send")}${t("newsShare")}</button>
    ${original ? html`<a class="pill-btn news-original" href="${original}" target="_blank" rel="noopener noreferrer" data-external>${t("newsOriginal")}</a>` : ""}`;
  setHTML(box, html`<article class="news-article">
      <h2 class="news-article-title">${a.title}</h2>
      <p class="news-article-meta">${[a.sourceTitle, a.author, a.publishedAt ? new Date(a.publishedAt).toLocaleString() : ""].filter(Boolean).join(" · ")}</p>
      ${videos.length ? html`<div class="news-videos">${videos.map((v) => html`<video class="news-video" controls preload="none" playsinline
        ${v.poster ? html`poster="${v.poster}"` : ""}><source src="${safeLink(v.url)}" ${v.type ? html`type="${v.type}"` : ""}></video>`)}</div>` : ""}
      <div class="news-content"></div>
      <div class="news-actions">${drawActions()}</div>
    </article>`);
  const content = box.querySelector(".news-content");
  setSanitizedHTML(content, a.content || "");
  if (!content.textContent.trim() && !content.querySelector("img, video") && a.summary) content.textContent = a.summary;
  // Videos the content carries play inline with their own controls, never by themselves.
  for (const video of content.querySelectorAll("video")) {
    video.controls = true;
    video.preload = "none";
    video.autoplay = false;
    video.playsInline = true;
  }
  content.addEventListener("click", (event) => {
    const picture = event.target.closest("img");
    if (!picture) return;
    event.preventDefault();
    fullScreen(picture.currentSrc || picture.src, picture.alt || "");
  });
  const actions = box.querySelector(".news-actions");
  actions.addEventListener("click", async (event) => {
    if (event.target.closest(".news-share")) share(a);
    if (!event.target.closest(".news-save")) return;
    try {
      await news.markSaved({ id: a.id }, { saved: !a.saved });
      a.saved = !a.saved;
      rememberSaved(a, a.saved);
      toast(a.saved ? t("newsSavedToast") : t("newsUnsavedToast"));
      setHTML(actions, drawActions());
    } catch (error) {
      toast(error.message);
    }
  });
  // Opened is read; and the last opened stay readable offline.
  if (!a.read) news.markRead({ id: a.id }, { read: true }).catch(() => {});
  a.read = true;
  readHere.add(String(a.id));
  keep(a);
}

export function mount(root, { params, query }) {
  const path = location.pathname;
  if (path.startsWith("/news/article/")) return articleScreen(root, params.id);
  if (path.startsWith("/news/saved")) return savedScreen(root);
  return channelsScreen(root, query ?? new URLSearchParams(location.search));
}
