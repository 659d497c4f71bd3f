// Moments: everyone's, the people I follow, or nearby (with the browser's geolocation when allowed);
// each with its text, up to nine pictures in a grid (a full-screen viewer on tap), place, likes, comments.
import { feeds, comments } from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { addHTML, setHTML, html, img, toast, confirmDialog, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { media } from "../media.js";
import { richText, avatar, ago, pullToRefresh } from "../social.js";
import "../i18n-social.js";

/** One moment's markup. */
/** A moment's like button says what it does and how many liked it, whatever it shows. */
const likeLabel = (feed) => (feed.likesCount ? `${t("likes")} ${count(feed.likesCount)}` : t("likes"));

/** The podcast episode a moment shares: its podcast's cover and title, opening the episode; or, when the
 * episode is gone, a line that says so. */
export function episodeShare(episode, { gone = false } = {}) {
  if (gone || !episode) return html`<p class="moment-share gone">${icon("mic")}<span>${t("episodeGone")}</span></p>`;
  return html`<a class="moment-share" href="/episode/${episode.id}" aria-label="${t("sharedEpisode", { t: episode.title })}">
    ${img(episode, 48, "share-cover")}<span class="share-text"><span class="share-title">${episode.title}</span>
    <span class="share-sub">${episode.podcastTitle}</span></span>${icon("mic", "share-kind")}</a>`;
}

export function momentCard(feed, { detail = false } = {}) {
  const me = store.get().user;
  const pics = feed.images || [];
  const grid = pics.length ? html`<div class="pic-grid n${Math.min(pics.length, 9)}${pics.length === 1 ? " one" : ""}">${pics.slice(0, 9).map((p, i) =>
    html`<button type="button" class="pic" data-pic="${i}" aria-label="${t("pictureOf", { i: i + 1, n: pics.length })}">
      <img src="${media(p.icon || p.uri)}" alt="" loading="lazy" decoding="async"${p.width && p.height ? ` width="${p.width}" height="${p.height}"` : ""}></button>`)}</div>` : "";
  const place = feed.place || [feed.province, feed.city].filter(Boolean).join(" · ");
  return html`<li class="moment" data-id="${feed.id}">
    <a class="moment-av" href="/user/${feed.user.id}" aria-label="${feed.user.nickname}">${avatar(feed.user, 40)}</a>
    <div class="moment-body">
      <div class="moment-head"><a class="moment-user" href="/user/${feed.user.id}">${feed.user.nickname}</a>
        <span class="moment-time">${ago(feed.createdAt)}${feed.distance != null ? ` · ${feed.distance < 1000 ? `${Math.round(feed.distance)} m` : `${(feed.distance / 1000).toFixed(1)} km`}` : ""}</span></div>
      ${feed.content ? html`<p class="moment-text">${richText(feed.content, feed.mentions, feed.topics)}</p>` : ""}
      ${grid}
      ${feed.episodeId ? episodeShare(feed.episode, { gone: !feed.episode }) : ""}
      ${place ? html`<p class="moment-place">${icon("place")}<span>${place}</span></p>` : ""}
      <div class="moment-actions">
        <button type="button" class="text-btn moment-like${feed.likeId ? " on" : ""}" aria-pressed="${Boolean(feed.likeId)}" aria-label="${likeLabel(feed)}">${icon(feed.likeId ? "thumb" : "thumbLine")}<span>${feed.likesCount ? count(feed.likesCount) : t("likes")}</span></button>
        ${detail ? "" : html`<a class="text-btn moment-comments" href="/moment/${feed.id}">${icon("comment")}<span>${feed.commentsCount ? count(feed.commentsCount) : t("comment")}</span></a>`}
        ${me?.userId === feed.user.id ? html`<button type="button" class="text-btn moment-delete" aria-label="${t("delete")}">${icon("trash")}</button>` : ""}
      </div>
    </div></li>`;
}

/** A card of the waterfall (the picture-heavy "everyone" page): the first picture at its own shape, the
 * start of the text, who and the likes; tapping opens the moment. */
export function waterfallCard(feed) {
  const pic = feed.images?.[0];
  const ratio = pic?.width && pic?.height ? ` width="${pic.width}" height="${pic.height}"` : ` width="1" height="1"`;
  return html`<li class="moment wf-card" data-id="${feed.id}">
    <a class="wf-link" href="/moment/${feed.id}">
      ${pic ? html`<span class="wf-pic"><img src="${media(pic.icon || pic.uri)}" alt=""${ratio} loading="lazy" decoding="async">
        ${feed.images.length > 1 ? html`<span class="wf-count">${icon("image")}${feed.images.length}</span>` : ""}</span>`
        : html`<span class="wf-quote">${feed.content.slice(0, 80)}</span>`}
      ${pic && feed.content ? html`<span class="wf-text">${feed.content}</span>` : ""}</a>
    <div class="wf-foot"><a class="wf-user" href="/user/${feed.user.id}">${avatar(feed.user, 20)}<span>${feed.user.nickname}</span></a>
      <button type="button" class="text-btn moment-like${feed.likeId ? " on" : ""}" aria-pressed="${Boolean(feed.likeId)}" aria-label="${likeLabel(feed)}">${icon(feed.likeId ? "thumb" : "thumbLine")}<span>${feed.likesCount ? count(feed.likesCount) : ""}</span></button></div>
  </li>`;
}

/** The full-screen picture viewer: swipe (scroll snap), arrows, pinch or double-tap zoom, Escape. */
export function viewer(pictures, start = 0) {
  const dialog = document.createElement("dialog");
  dialog.className = "pic-viewer";
  dialog.setAttribute("aria-label", t("pictureOf", { i: start + 1, n: pictures.length }));
  // The track scrolls, so it takes focus (the arrows move it; axe's scrollable-region-focusable).
  setHTML(dialog, html`<div class="viewer-track" tabindex="0" role="group" aria-label="${t("pictureOf", { i: start + 1, n: pictures.length })}">${pictures.map((p, i) => html`<figure class="viewer-slide"><img src="${media(p.uri)}" alt="${t("pictureOf", { i: i + 1, n: pictures.length })}" decoding="async" draggable="false"></figure>`)}</div>
    <p class="viewer-count">${start + 1} / ${pictures.length}</p>
    <button type="button" class="icon-btn viewer-close" aria-label="${t("close")}">${icon("close")}</button>`);
  document.body.append(dialog);
  const track = dialog.querySelector(".viewer-track");
  const counter = dialog.querySelector(".viewer-count");
  let index = start;
  const go = (i) => {
    index = Math.max(0, Math.min(pictures.length - 1, i));
    track.scrollTo({ left: index * track.clientWidth });
  };
  track.addEventListener("scroll", () => {
    index = Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
    counter.textContent = `${index + 1} / ${pictures.length}`;
    track.setAttribute("aria-label", t("pictureOf", { i: index + 1, n: pictures.length }));
  }, { passive: true });
  // Pinch: two pointers on a picture scale it; a double tap toggles 2x.
  const pointers = new Map();
  let base = 0;
  let scale = 1;
  const zoom = (img, value) => {
    scale = Math.max(1, Math.min(4, value));
    img.style.transform = `scale(${scale})`;
    track.classList.toggle("zoomed", scale > 1);
  };
  track.addEventListener("pointerdown", (e) => { pointers.set(e.pointerId, e); if (pointers.size === 2) base = 0; });
  track.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, e);
    if (pointers.size !== 2) return;
    const [a, b] = [...pointers.values()];
    const distance = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
    if (!base) base = distance / scale;
    else zoom(track.children[index].querySelector("img"), distance / base);
  });
  const up = (e) => pointers.delete(e.pointerId);
  track.addEventListener("pointerup", up);
  track.addEventListener("pointercancel", up);
  track.addEventListener("dblclick", (e) => {
    const img = e.target.closest("img");
    if (img) zoom(img, scale > 1 ? 1 : 2);
  });
  dialog.addEventListener("click", (e) => {
    if (e.target.closest(".viewer-close") || (!e.target.closest("img") && scale === 1)) dialog.close();
  });
  dialog.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  });
  dialog.addEventListener("close", () => dialog.remove());
  dialog.showModal();
  requestAnimationFrame(() => { track.scrollLeft = start * track.clientWidth; });
  return dialog;
}

/** Likes, pictures and deleting inside a list of moments. `items` is kept in step. */
export function bindMoments(list, items, { onDelete } = {}) {
  list.addEventListener("click", async (event) => {
    const row = event.target.closest(".moment");
    if (!row) return;
    const feed = items.find((f) => f.id === row.dataset.id);
    if (!feed) return;
    const pic = event.target.closest("[data-pic]");
    if (pic) { viewer(feed.images, Number(pic.dataset.pic)); return; }
    const like = event.target.closest(".moment-like");
    if (like) {
      if (!store.get().user) { toast(t("signInFirst")); navigate("/login"); return; }
      try {
        if (feed.likeId) {
          await comments.unlike({ id: feed.likeId });
          feed.likeId = null;
          feed.likesCount = Math.max(0, feed.likesCount - 1);
        } else {
          const liked = await comments.like({}, { feedId: feed.id });
          feed.likeId = liked.likeId ?? "1";
          feed.likesCount = liked.likesCount ?? feed.likesCount + 1;
        }
        like.classList.toggle("on", Boolean(feed.likeId));
        like.setAttribute("aria-pressed", String(Boolean(feed.likeId)));
        like.setAttribute("aria-label", likeLabel(feed));
        const label = feed.likesCount ? count(feed.likesCount) : row.classList.contains("wf-card") ? "" : t("likes");
        setHTML(like, html`${icon(feed.likeId ? "thumb" : "thumbLine")}<span>${label}</span>`);
      } catch (error) {
        toast(error.message);
      }
      return;
    }
    if (event.target.closest(".moment-delete")) {
      if (!(await confirmDialog(t("delete") + "?"))) return;
      try {
        await feeds.delete({ id: feed.id });
        row.remove();
        items.splice(items.indexOf(feed), 1);
        toast(t("deleted"));
        onDelete?.(feed);
      } catch (error) {
        toast(error.message);
      }
    }
  });
}

/** A paged list of moments from `load(cursor)` into `box`, more when its end scrolls into view. */
export function momentList(box, load, { empty = t("noMoments"), card = (f) => momentCard(f), cls = "" } = {}) {
  const items = [];
  let cursor = null;
  let done = false;
  let busy = false;
  setHTML(box, html`<ul class="moment-list ${cls}"></ul><div class="list-foot">${loadingBlock()}</div>`);
  const list = box.querySelector(".moment-list");
  const foot = box.querySelector(".list-foot");
  bindMoments(list, items);
  const more = async () => {
    if (busy || done) return;
    busy = true;
    try {
      const page = await load(cursor);
      if (!box.isConnected) return;
      items.push(...page.data);
      addHTML(list, page.data.map(card), "beforeend");
      cursor = page.nextCursor;
      done = !cursor || !page.data.length;
      setHTML(foot, items.length ? (done ? html`<p class="hint center">${t("noMore")}</p>` : html`<div class="sentinel"></div>`) : emptyBlock(empty));
      const sentinel = foot.querySelector(".sentinel");
      if (sentinel) observer.observe(sentinel);
    } catch (error) {
      if (!box.isConnected) return;
      setHTML(foot, errorBlock(error));
      foot.querySelector("[data-action=retry]").addEventListener("click", more);
    } finally {
      busy = false;
    }
  };
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); more(); }
  }, { rootMargin: "400px" });
  more();
  return { items, stop: () => observer.disconnect() };
}

function position() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) { reject(new Error(t("nearbyDenied"))); return; }
    navigator.geolocation.getCurrentPosition((p) => resolve(p.coords), () => reject(new Error(t("nearbyDenied"))), { timeout: 10000, maximumAge: 600000 });
  });
}

export async function mount(root, { query }) {
  const user = store.get().user;
  const tab = query.get("tab") || (user ? "following" : "everyone");
  const tabs = [["everyone", t("everyone")], ...(user ? [["following", t("followingFeed")]] : []), ["nearby", t("nearby")]];
  setHTML(root, html`<header class="top-bar moments-bar"><h1 class="top-title">${t("moments")}</h1>
      ${user ? html`<a class="icon-btn new-moment" href="/moments/new" aria-label="${t("newMoment")}" title="${t("newMoment")}">${icon("camera")}</a>` : ""}</header>
    <nav class="tabs moment-tabs">${tabs.map(([key, label]) => html`<a class="tab-link${key === tab ? " active" : ""}" href="/moments?tab=${key}"${key === tab ? ' aria-current="page"' : ""}>${label}</a>`)}</nav>
    <div class="moments-body"></div>`);
  const body = root.querySelector(".moments-body");
  let list = null;
  pullToRefresh(root, () => navigate(`/moments?tab=${tab}`, { replace: true }));
  if (tab === "following" && user) {
    list = momentList(body, (cursor) => feeds.timeline({ cursor, size: 15 }));
  } else if (tab === "nearby") {
    setHTML(body, html`<div class="state-block" role="status"><span class="spinner" aria-hidden="true"></span>${t("locating")}</div>`);
    try {
      const coords = await position();
      if (!root.isConnected) return;
      list = momentList(body, (cursor) => feeds.nearby({ latitude: coords.latitude, longitude: coords.longitude, cursor, size: 15 }));
    } catch (error) {
      if (root.isConnected) setHTML(body, emptyBlock(error.message));
    }
  } else {
    list = momentList(body, (cursor) => feeds.list({ cursor, size: 20 }), { card: waterfallCard, cls: "waterfall" });
  }
  return () => list?.stop();
}
