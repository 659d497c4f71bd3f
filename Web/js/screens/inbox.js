// Notifications by kind (mentions, replies, likes, follows, comments), unread ones marked; opening one marks
// it read and goes to its cause. A new one shows at the top as it happens (the event stream, live.js). The
// messages (私信) open from the top bar, with their own unread count.
import { notifications } from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { addHTML, setHTML, html, toast, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { avatar, ago } from "../social.js";
import { refreshUnread, drawBadges } from "../badge.js";
import { live } from "../live.js";
import "../i18n-social.js";

const KINDS = [["all", "all"], ["mention", "mentionsKind"], ["reply", "repliesKind"], ["like", "likesKind"], ["follow", "followsKind"], ["comment", "commentsKind"]];

function what(item) {
  switch (item.kind) {
    case "mention": return item.comment ? t("kindMention") : t("kindMentionFeed");
    case "reply": return t("kindReply");
    case "like": return item.comment ? t("kindLike") : t("kindLikeFeed");
    case "follow": return t("kindFollow");
    case "comment": return t("kindComment");
    default: return t("kindOther");
  }
}

function cause(item) {
  const c = item.comment;
  if (item.kind === "follow") return `/user/${item.actor.id}`;
  if (c?.songId) return `/comments/song/${c.songId}`;
  if (c?.sheetId) return `/comments/sheet/${c.sheetId}`;
  const feed = c?.feedId || item.feedId;
  if (feed) return `/moment/${feed}`;
  return `/user/${item.actor.id}`;
}

export async function mount(root, { query }) {
  if (!store.get().user) { navigate("/login?next=/inbox", { replace: true }); return; }
  const kind = query.get("kind") || "all";
  const kinds = store.get().unread?.kinds || {};
  setHTML(root, html`<header class="top-bar inbox-bar"><h1 class="top-title">${t("inbox")}</h1>
      <a class="text-btn inbox-messages" href="/messages">${icon("chat")}<span>${t("messages")}</span><span class="badge badge-slot" data-badge="messages" hidden></span></a>
      <button type="button" class="text-btn mark-all">${t("markAllRead")}</button></header>
    <nav class="tabs inbox-tabs">${KINDS.map(([k, label]) => html`<a class="tab-link${k === kind ? " active" : ""}" href="/inbox${k === "all" ? "" : `?kind=${k}`}" data-kind="${k}">${t(label)}${k !== "all" && kinds[k] ? html`<span class="kind-badge">${kinds[k]}</span>` : ""}</a>`)}</nav>
    <ul class="notice-list">${loadingBlock()}</ul><div class="list-foot"></div>`);
  const list = root.querySelector(".notice-list");
  const foot = root.querySelector(".list-foot");
  let items = [];
  let cursor = null;
  const row = (item) => html`<li class="notice${item.read ? "" : " unread"}" data-id="${item.id}">
    <a class="notice-av" href="/user/${item.actor.id}" aria-label="${item.actor.nickname}">${avatar(item.actor, 44)}</a>
    <button type="button" class="notice-main"><span class="notice-line"><b>${item.actor.nickname}</b> ${what(item)}</span>
      ${item.comment?.content ? html`<span class="notice-quote">${item.comment.content}</span>` : ""}
      <span class="notice-time">${ago(item.createdAt)}</span></button>
    ${item.read ? "" : html`<span class="unread-dot" role="img" aria-label="${t("unreadMark")}"></span>`}</li>`;
  const load = async (more = false) => {
    try {
      const page = await notifications.list({ size: 30, cursor: more ? cursor : undefined });
      if (!root.isConnected) return;
      cursor = page.nextCursor;
      const shown = page.data.filter((n) => kind === "all" || n.kind === kind);
      items = more ? [...items, ...page.data] : page.data;
      if (!more) list.replaceChildren();
      addHTML(list, shown.map(row), "beforeend");
      if (!list.children.length) setHTML(list, html`<li>${emptyBlock(t("noNotifications"))}</li>`);
      setHTML(foot, cursor ? html`<button type="button" class="pill-btn load-more">${t("loadMore")}</button>` : "");
    } catch (error) {
      if (root.isConnected) setHTML(list, errorBlock(error));
    }
  };
  foot.addEventListener("click", (e) => { if (e.target.closest(".load-more")) load(true); });
  root.querySelector(".mark-all").addEventListener("click", async () => {
    try {
      const unread = await notifications.markRead({}, {});
      for (const el of list.querySelectorAll(".notice.unread")) el.classList.remove("unread");
      for (const el of list.querySelectorAll(".unread-dot, .kind-badge")) el.remove();
      for (const el of root.querySelectorAll(".kind-badge")) el.remove();
      items.forEach((n) => { n.read = true; });
      store.set({ unread: unread?.count !== undefined ? unread : { count: 0, kinds: {} } });
    } catch (error) {
      toast(error.message);
    }
  });
  list.addEventListener("click", async (event) => {
    const main = event.target.closest(".notice-main");
    if (!main) return;
    const item = items.find((n) => n.id === main.closest(".notice").dataset.id);
    if (!item) return;
    if (!item.read) {
      notifications.update({ id: item.id }, { read: true }).then(() => refreshUnread(true)).catch(() => {});
      item.read = true;
    }
    navigate(cause(item));
  });
  // Live: a new notification goes on top (when this tab shows its kind), the kinds' counts follow.
  const onNotification = ({ detail }) => {
    const item = detail.notification;
    if (!item || items.some((n) => n.id === item.id)) return;
    items.unshift(item);
    if (kind === "all" || item.kind === kind) {
      list.querySelector(".state-block.empty")?.closest("li")?.remove();
      addHTML(list, row(item), "afterbegin");
    }
    for (const link of root.querySelectorAll(".inbox-tabs .tab-link")) {
      const k = link.dataset.kind;
      const n = detail.unread?.kinds?.[k] || 0;
      let badge = link.querySelector(".kind-badge");
      if (k === "all" || !n) { badge?.remove(); continue; }
      if (!badge) addHTML(link, html`<span class="kind-badge"></span>`, "beforeend");
      link.querySelector(".kind-badge").textContent = String(n);
    }
  };
  live.addEventListener("notification", onNotification);
  drawBadges();
  // Coming back to the app brings the newest ones.
  const onFocus = () => { if (document.visibilityState === "visible") load(); };
  document.addEventListener("visibilitychange", onFocus);
  await load();
  return () => {
    document.removeEventListener("visibilitychange", onFocus);
    live.removeEventListener("notification", onNotification);
  };
}
