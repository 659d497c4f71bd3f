// Comments of a song, sheet, video, moment or podcast episode: hot and new tabs, more by cursor, replies quoting their
// parent, likes, deleting one's own, reports; the composer at the bottom.
import { comments, catalog, sheets, feeds, videos } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { addHTML, setHTML, html, img, toast, actionSheet, confirmDialog, promptDialog, errorBlock, emptyBlock, artistNames, loadingBlock } from "../ui.js";
import { richText, avatar, ago, likeIcon, pullToRefresh } from "../social.js";
import { composer } from "../composer.js";
import { engine } from "../player.js";
import { momentCard, bindMoments } from "./moments.js";
import "../i18n-social.js";

export function commentItem(comment) {
  const me = store.get().user;
  return html`<li class="comment" data-id="${comment.id}">
    <a class="comment-av" href="/user/${comment.user.id}" aria-label="${comment.user.nickname}">${avatar(comment.user, 36)}</a>
    <div class="comment-body">
      <div class="comment-head"><span class="comment-who"><a class="comment-user" href="/user/${comment.user.id}">${comment.user.nickname}</a>
        <span class="comment-time">${ago(comment.createdAt)}</span></span>
        <button type="button" class="comment-like${comment.likeId ? " on" : ""}" aria-pressed="${Boolean(comment.likeId)}" aria-label="${t("like")}">
          <span class="like-count">${comment.likesCount ? count(comment.likesCount) : ""}</span>${likeIcon(Boolean(comment.likeId))}</button></div>
      <p class="comment-text">${richText(comment.content, comment.mentions, comment.topics)}</p>
      ${comment.parent ? html`<blockquote class="comment-quote"><a href="/user/${comment.parent.user.id}">@${comment.parent.user.nickname}</a>：${comment.parent.content}</blockquote>` : ""}
      <div class="comment-actions">
        <button type="button" class="text-btn comment-reply">${t("reply")}</button>
        ${comment.repliesCount ? html`<button type="button" class="text-btn comment-thread" aria-expanded="false">${t("repliesN", { n: count(comment.repliesCount) })}${icon("down")}</button>` : ""}
        ${me && me.userId === comment.user.id ? html`<button type="button" class="text-btn comment-delete">${t("delete")}</button>` : ""}
        <button type="button" class="icon-btn comment-more" aria-label="${t("more2")}">${icon("more")}</button>
      </div>
      <ul class="comment-replies" hidden></ul>
    </div></li>`;
}

/** The list of comments on `target` ({ songId } | { sheetId } | { feedId } | { videoId } | { episodeId }) inside `box`, with its tabs and
 * composer (in `composerBox`). Returns { refresh }. One request for the first page. */
export function commentSection(box, composerBox, target, { onCount } = {}) {
  let order = "hot";
  let cursor = null;
  let items = [];
  let loading = false;
  setHTML(box, html`<nav class="tabs comment-tabs" role="tablist">
      <button type="button" role="tab" class="tab-link active" data-order="hot" aria-selected="true">${t("hot")}</button>
      <button type="button" role="tab" class="tab-link" data-order="new" aria-selected="false">${t("newest")}</button></nav>
    <ul class="comment-list" aria-live="polite"></ul><div class="comment-foot"></div>`);
  const list = box.querySelector(".comment-list");
  const foot = box.querySelector(".comment-foot");

  const renderFoot = () => {
    setHTML(foot, cursor ? html`<button type="button" class="pill-btn load-more">${t("loadMore")}</button>`
      : items.length ? html`<p class="hint center">${t("noMore")}</p>` : "");
  };
  const load = async (more = false) => {
    if (loading) return;
    loading = true;
    if (!more) { list.replaceChildren(); setHTML(foot, loadingBlock()); }
    else foot.querySelector(".load-more")?.setAttribute("disabled", "");
    try {
      const page = await comments.list({ ...target, order, size: 20, cursor: more ? cursor : undefined });
      if (!box.isConnected) return;
      cursor = page.nextCursor;
      items = more ? [...items, ...page.data] : page.data;
      if (!more) onCount?.(page.total);
      if (!items.length) setHTML(list, html`<li class="comment-empty">${emptyBlock(t("noComments"))}</li>`);
      else addHTML(list, page.data.map(commentItem), "beforeend");
      renderFoot();
    } catch (error) {
      if (!box.isConnected) return;
      setHTML(foot, errorBlock(error));
    } finally {
      loading = false;
    }
  };
  const find = (el) => items.find((c) => c.id === el.closest(".comment")?.dataset.id);
  const needUser = () => {
    if (store.get().user) return true;
    toast(t("signInFirst"));
    navigate(`/login?next=${encodeURIComponent(location.pathname)}`);
    return false;
  };
  const write = composerBox ? composer(composerBox, {
    placeholder: store.get().user ? t("writeComment") : t("loginToComment"),
    async send(text, parent) {
      if (!needUser()) return;
      const created = await comments.create({}, { content: text, ...Object.fromEntries(Object.entries(target).map(([k, v]) => [k, String(v)])), parentId: parent?.id });
      items = [created, ...items];
      list.querySelector(".comment-empty")?.remove();
      addHTML(list, commentItem(created), "afterbegin");
      onCount?.(null, 1);
      toast(t("sent"));
    },
  }) : null;

  box.addEventListener("click", async (event) => {
    const tab = event.target.closest("[data-order]");
    if (tab) {
      if (tab.dataset.order === order) return;
      order = tab.dataset.order;
      for (const other of box.querySelectorAll("[data-order]")) {
        other.classList.toggle("active", other === tab);
        other.setAttribute("aria-selected", String(other === tab));
      }
      cursor = null;
      load();
      return;
    }
    if (event.target.closest(".load-more")) { load(true); return; }
    if (event.target.closest("[data-action=retry]")) { load(items.length > 0); return; }
    const comment = event.target.closest(".comment") && find(event.target);
    if (!comment) return;
    const row = event.target.closest(".comment");
    if (event.target.closest(".comment-thread")) {
      const button = event.target.closest(".comment-thread");
      const replies = row.querySelector(".comment-replies");
      const open = button.getAttribute("aria-expanded") === "true";
      button.setAttribute("aria-expanded", String(!open));
      replies.hidden = open;
      if (!open && !replies.dataset.loaded) {
        setHTML(replies, loadingBlock());
        try {
          const page = await comments.list({ parentId: comment.id, order: "new", size: 50 });
          items.push(...page.data.filter((r) => !items.some((c) => c.id === r.id)));
          replies.dataset.loaded = "1";
          setHTML(replies, page.data.map(commentItem));
        } catch (error) {
          setHTML(replies, errorBlock(error));
        }
      }
      return;
    }
    if (event.target.closest(".comment-like")) {
      if (!needUser()) return;
      const button = event.target.closest(".comment-like");
      try {
        if (comment.likeId) {
          await comments.unlike({ id: comment.likeId });
          comment.likeId = null;
          comment.likesCount = Math.max(0, comment.likesCount - 1);
        } else {
          const liked = await comments.like({}, { commentId: comment.id });
          comment.likeId = liked.likeId ?? liked.id ?? "1";
          comment.likesCount = liked.likesCount ?? comment.likesCount + 1;
        }
        button.classList.toggle("on", Boolean(comment.likeId));
        button.setAttribute("aria-pressed", String(Boolean(comment.likeId)));
        setHTML(button, html`<span class="like-count">${comment.likesCount ? count(comment.likesCount) : ""}</span>${likeIcon(Boolean(comment.likeId))}`);
      } catch (error) {
        toast(error.message);
      }
    } else if (event.target.closest(".comment-reply")) {
      if (needUser()) write?.reply(comment);
    } else if (event.target.closest(".comment-delete")) {
      remove(comment, row);
    } else if (event.target.closest(".comment-more")) {
      const me = store.get().user;
      const choice = await actionSheet({ title: comment.user.nickname, subtitle: comment.content.slice(0, 60), items: [
        { label: t("reply"), value: "reply", icon: "comment" },
        { label: t("report"), value: "report", icon: "flag" },
        ...(me?.userId === comment.user.id ? [{ label: t("delete"), value: "delete", icon: "trash" }] : []),
      ] });
      if (choice === "reply" && needUser()) write?.reply(comment);
      else if (choice === "delete") remove(comment, row);
      else if (choice === "report" && needUser()) {
        const reason = await promptDialog({ title: t("report"), placeholder: t("report"), ok: t("report"), maxLength: 200 });
        if (reason === null) return;
        try {
          await comments.report({ id: comment.id }, { reason });
          toast(t("reported"));
        } catch (error) {
          toast(error.message);
        }
      }
    }
  });

  async function remove(comment, row) {
    if (!(await confirmDialog(t("confirmDeleteComment")))) return;
    try {
      await comments.delete({ id: comment.id });
      items = items.filter((c) => c !== comment);
      row.remove();
      onCount?.(null, -1);
      toast(t("deleted"));
    } catch (error) {
      toast(error.message);
    }
  }

  load();
  return { refresh: () => load(), composer: write };
}

/** The subject at the top: what the comments are on. */
function subject(kind, thing) {
  if (kind === "song") {
    return html`<button type="button" class="comment-subject play-subject">${img(thing, 56, "subject-cover")}<span class="subject-text">
      <span class="subject-title">${thing.title}</span><span class="subject-sub">${artistNames(thing)}</span></span>${icon("play", "chev")}</button>`;
  }
  if (kind === "sheet") {
    return html`<a class="comment-subject" href="/sheet/${thing.id}">${img(thing, 56, "subject-cover")}<span class="subject-text">
      <span class="subject-title">${thing.title}</span><span class="subject-sub">${t("by", { name: thing.user?.nickname ?? "" })}</span></span>${icon("right", "chev")}</a>`;
  }
  if (kind === "video") {
    return html`<a class="comment-subject" href="/video/${thing.id}">${img(thing, 56, "subject-cover")}<span class="subject-text">
      <span class="subject-title">${thing.title}</span><span class="subject-sub">${thing.singer?.name ?? ""}</span></span>${icon("right", "chev")}</a>`;
  }
  return html`<ul class="moment-list single">${momentCard(thing, { detail: true })}</ul>`;
}

export async function mount(root, { params }) {
  const { kind, id } = params;
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("comments")}</h1></header>
    <div class="comments-page"><div class="subject-box"></div><section class="comment-section"></section></div>
    <div class="composer-dock"></div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/"));
  const title = root.querySelector(".top-title");
  let total = 0;
  const onCount = (value, delta = 0) => {
    total = value ?? total + delta;
    title.textContent = t("commentsOf", { n: total });
  };
  const load = {
    song: () => catalog.song({ id }),
    sheet: () => sheets.detail({ id, songs: 0 }),
    moment: () => feeds.detail({ id }),
    video: () => videos.detail({ id }),
  }[kind];
  if (!load) { navigate("/", { replace: true }); return; }
  // The subject and the first page of comments are asked for together.
  const targetKey = { song: "songId", sheet: "sheetId", moment: "feedId", video: "videoId" }[kind];
  const subjectBox = root.querySelector(".subject-box");
  let section = null;
  const start = (target) => { section = commentSection(root.querySelector(".comment-section"), root.querySelector(".composer-dock"), target, { onCount }); };
  pullToRefresh(root.querySelector(".comments-page"), () => section?.refresh());
  if (targetKey) start({ [targetKey]: id });
  try {
    const thing = await load();
    if (!root.isConnected) return;
    setHTML(subjectBox, subject(kind, thing));
    if (kind === "moment") bindMoments(subjectBox, [thing]);
    // Tapping the song plays it (unless it is the one playing) and opens the play page.
    subjectBox.querySelector(".play-subject")?.addEventListener("click", () => {
      if (engine.song?.id !== thing.id) engine.playList([thing], 0);
      navigate("/play");
    });
  } catch (error) {
    if (!root.isConnected) return;
    setHTML(subjectBox, errorBlock(error));
    subjectBox.querySelector("[data-action=retry]")?.addEventListener("click", () => mount(root, { params }));
  }
}
