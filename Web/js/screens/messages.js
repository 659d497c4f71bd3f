// Messages: the conversation list and the chat. A phone shows one at a time (/messages, then /messages/:id);
// a wide screen shows them side by side. /messages/user/:userId opens the chat with a person (from the
// "Message" button of their page): their conversation when there is one, else an empty chat that the first
// message starts. The event stream (live.js) brings new messages, read marks and deletions as they happen.
import { messages, accounts } from "../api.js";
import * as store from "../store.js";
import { navigate, back, refresh } from "../router.js";
import { t, lang } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, img, toast, actionSheet, confirmDialog, errorBlock, emptyBlock, loadingBlock, artistNames } from "../ui.js";
import { avatar, resizePicture, uploadPicture, PICTURE_TYPES } from "../social.js";
import { media } from "../media.js";
import { engine } from "../player.js";
import { live } from "../live.js";
import { refreshMessages } from "../badge.js";
import { viewer } from "./moments.js";
import "../i18n-social.js";
import "../i18n-chat.js";

const WIDE = matchMedia("(min-width: 960px)");
const PAGE = 30;
/** A time line between messages further apart than this. */
const GAP = 5 * 60 * 1000;
/** The longest text, as the server counts it (it has the last word: its refusal is shown as it is). */
const MAX = 2000;

/** The conversations last shown, so coming back (or opening another chat on a wide screen) draws at once. */
let cache = null;

const me = () => store.get().user?.userId;
const locale = () => (lang() === "zh" ? "zh-CN" : "en");
const sameDay = (a, b) => a.toDateString() === b.toDateString();
const byId = (a, b) => Number(a.id) - Number(b.id);

function clockTime(date) {
  return date.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit", hour12: false });
}

/** A conversation's time: today's as 14:05, yesterday, this year's as a day, older ones with the year. */
export function listTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const now = new Date();
  if (sameDay(date, now)) return clockTime(date);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return t("yesterday");
  if (date.getFullYear() === now.getFullYear()) return date.toLocaleDateString(locale(), { month: "short", day: "numeric" });
  return date.toLocaleDateString(locale(), { year: "numeric", month: "numeric", day: "numeric" });
}

/** The time line above a run of messages: the day (unless today) and the time. */
function chatTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return sameDay(date, new Date()) ? clockTime(date) : `${listTime(iso)} ${clockTime(date)}`;
}

/** A message in one line, as the conversation list shows the last one. */
export function preview(message) {
  if (!message) return "";
  switch (message.kind) {
    case "text": return message.content ?? "";
    case "image": return t("previewPicture");
    case "song": return message.song ? t("previewSong", { title: message.song.title }) : t("previewGone");
    case "sheet": return message.sheet ? t("previewSheet", { title: message.sheet.title }) : t("previewGone");
    case "video": return message.video ? t("previewVideo", { title: message.video.title }) : t("previewGone");
    default: return "";
  }
}

const countLabel = (n) => (n > 99 ? "99+" : String(n));

function conversationRow(conversation, activeId) {
  const unread = conversation.unreadCount || 0;
  const active = conversation.id === activeId;
  return html`<li class="conv${unread ? " unread" : ""}${active ? " active" : ""}" data-id="${conversation.id}">
    <a class="conv-link" href="/messages/${conversation.id}"${active ? ' aria-current="page"' : ""}>
      <span class="conv-av">${avatar(conversation.user, 44)}${unread ? html`<span class="conv-badge" aria-label="${t("unreadCount", { n: unread })}">${countLabel(unread)}</span>` : ""}</span>
      <span class="conv-text"><span class="conv-top"><span class="conv-name">${conversation.user.nickname}</span>
        <time class="conv-time" datetime="${conversation.updatedAt}">${listTime(conversation.updatedAt)}</time></span>
        <span class="conv-last">${preview(conversation.lastMessage)}</span></span></a></li>`;
}

/** The conversation list in `box`; `activeId` is the one open beside it. Returns the way to stop it. */
function conversationList(box, { activeId, onDeleted }) {
  setHTML(box, html`<ul class="conv-list" aria-label="${t("messages")}"></ul><div class="list-foot"></div>`);
  const list = box.querySelector(".conv-list");
  const foot = box.querySelector(".list-foot");
  const user = me();
  if (cache?.userId !== user) cache = { userId: user, items: null, cursor: null };
  const draw = () => {
    const items = cache.items;
    if (!items) { setHTML(list, html`<li>${loadingBlock()}</li>`); return; }
    setHTML(list, items.length
      ? items.map((c) => conversationRow(c, activeId))
      : html`<li class="conv-empty">${emptyBlock(t("noConversations"))}<p class="hint center">${t("noConversationsHint")}</p></li>`);
    setHTML(foot, cache.cursor ? html`<button type="button" class="pill-btn load-more">${t("loadMore")}</button>` : "");
  };
  // Unread counts the event stream told while a page was on its way: they are newer than, or the same as, the
  // page's (a read mark made just before the list opened can commit after the server read the page).
  const heard = new Map();
  const load = async (more = false) => {
    if (!more) heard.clear();
    try {
      const page = await messages.conversations({ size: PAGE, cursor: more ? cache.cursor : undefined });
      if (!box.isConnected || cache.userId !== user) return;
      const fresh = page.data;
      for (const c of fresh) if (heard.has(c.id)) c.unreadCount = heard.get(c.id);
      cache.items = more ? [...cache.items, ...fresh.filter((c) => !cache.items.some((o) => o.id === c.id))] : fresh;
      cache.cursor = page.nextCursor ?? null;
      draw();
    } catch (error) {
      if (!box.isConnected) return;
      if (cache.items && !more) return; // What was shown stays; the next visit asks again.
      if (more) { toast(error.message); return; }
      setHTML(list, html`<li>${errorBlock(error)}</li>`);
      list.querySelector("[data-action=retry]")?.addEventListener("click", () => { draw(); load(); });
    }
  };
  foot.addEventListener("click", (event) => { if (event.target.closest(".load-more")) load(true); });

  const bringUp = (conversation) => {
    cache.items = [conversation, ...(cache.items || []).filter((c) => c.id !== conversation.id)];
  };
  const onMessage = ({ detail }) => {
    const { message } = detail;
    if (!message) return;
    const mine = message.sender.id === user;
    // The chat open beside the list reads it at once; elsewhere it counts as unread.
    const unread = message.conversationId === activeId && document.visibilityState === "visible" ? 0 : detail.unreadCount;
    if (!mine) heard.set(message.conversationId, unread);
    if (!cache.items) return;
    const known = cache.items.find((c) => c.id === message.conversationId);
    if (known) {
      known.lastMessage = message;
      known.updatedAt = message.createdAt;
      if (!mine) known.unreadCount = unread;
      bringUp(known);
      draw();
    } else {
      messages.conversation({ id: message.conversationId }).then((conversation) => {
        if (!box.isConnected || cache.userId !== user) return;
        bringUp(conversation);
        draw();
      }, () => {});
    }
  };
  const onRead = ({ detail }) => {
    if (detail.userId !== user) return;
    heard.set(detail.conversationId, detail.unreadCount ?? 0);
    if (!cache.items) return;
    const known = cache.items.find((c) => c.id === detail.conversationId);
    if (!known) return;
    known.unreadCount = detail.unreadCount ?? 0;
    draw();
  };
  const onConversation = ({ detail }) => {
    if (!detail.deleted || !cache.items) return;
    cache.items = cache.items.filter((c) => c.id !== detail.conversationId);
    draw();
  };
  live.addEventListener("message", onMessage);
  live.addEventListener("read", onRead);
  live.addEventListener("conversation", onConversation);

  // Long press or right click on a conversation: delete it (for oneself).
  const menu = async (row) => {
    const conversation = cache.items?.find((c) => c.id === row.dataset.id);
    if (!conversation) return;
    const choice = await actionSheet({ title: conversation.user.nickname, items: [
      { label: t("deleteConversation"), value: "delete", icon: "trash" },
    ] });
    if (choice === "delete") deleteConversation(conversation, onDeleted);
  };
  pressMenu(list, ".conv-link", (target) => menu(target.closest(".conv")));

  draw();
  load();
  return () => {
    live.removeEventListener("message", onMessage);
    live.removeEventListener("read", onRead);
    live.removeEventListener("conversation", onConversation);
  };
}

async function deleteConversation(conversation, after) {
  if (!(await confirmDialog(t("confirmDeleteConversation")))) return;
  try {
    await messages.deleteConversation({ id: conversation.id });
    if (cache?.items) cache.items = cache.items.filter((c) => c.id !== conversation.id);
    refreshMessages();
    toast(t("deleted"));
    after?.(conversation);
  } catch (error) {
    toast(error.message);
  }
}

/** Calls `open(element)` on a long press (touch) or a context menu (right click, the menu key) on a `selector`
 * inside `root`, and swallows the click that ends a long press. */
function pressMenu(root, selector, open) {
  let timer = 0;
  let start = null;
  let opened = 0;
  const cancel = () => { clearTimeout(timer); start = null; };
  root.addEventListener("pointerdown", (event) => {
    const target = event.target.closest(selector);
    if (!target || event.pointerType === "mouse") return;
    start = { x: event.clientX, y: event.clientY };
    clearTimeout(timer);
    timer = setTimeout(() => {
      opened = Date.now();
      open(target);
    }, 550);
  });
  root.addEventListener("pointermove", (event) => {
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) cancel();
  });
  root.addEventListener("pointerup", cancel);
  root.addEventListener("pointercancel", cancel);
  root.addEventListener("contextmenu", (event) => {
    const target = event.target.closest(selector);
    if (!target) return;
    event.preventDefault();
    cancel();
    if (Date.now() - opened < 800) return; // the long press opened it already
    opened = Date.now();
    open(target);
  });
  root.addEventListener("click", (event) => {
    if (Date.now() - opened < 800 && event.target.closest(selector)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
}

/** The picture of an image message, fitted in 200x240 keeping its shape. */
function picture(file) {
  const w = file.width || 200;
  const h = file.height || 200;
  const scale = Math.min(1, 200 / w, 240 / h);
  const width = Math.max(60, Math.round(w * scale));
  const height = Math.max(60, Math.round(h * scale));
  return html`<button type="button" class="msg-pic" data-act="picture" aria-label="${t("previewPicture")}">
    <img src="${media(file.icon || file.uri)}" width="${width}" height="${height}" alt="" decoding="async"></button>`;
}

function content(message) {
  switch (message.kind) {
    case "text":
      return html`<p class="bubble">${message.content}</p>`;
    case "image":
      return message.image ? picture(message.image) : html`<p class="bubble gone">${t("previewGone")}</p>`;
    case "song": {
      const song = message.song;
      if (!song) return html`<p class="bubble gone">${t("songGone")}</p>`;
      return html`<button type="button" class="msg-card song-card" data-act="song" aria-label="${`${t("tapToPlay")}: ${song.title}`}">
        ${img(song, 48, "msg-card-cover")}<span class="msg-card-text"><span class="msg-card-title">${song.title}</span>
        <span class="msg-card-sub">${artistNames(song)}</span></span><span class="msg-card-play">${icon("play")}</span></button>`;
    }
    case "sheet": {
      const sheet = message.sheet;
      if (!sheet) return html`<p class="bubble gone">${t("sheetGone")}</p>`;
      return html`<a class="msg-card sheet-card" href="/sheet/${sheet.id}">${img(sheet, 48, "msg-card-cover")}
        <span class="msg-card-text"><span class="msg-card-title">${sheet.title}</span>
        <span class="msg-card-sub">${t("sharedSheet", { n: sheet.songsCount ?? 0 })}${sheet.user ? ` · ${sheet.user.nickname}` : ""}</span></span>${icon("right", "msg-card-chev")}</a>`;
    }
    case "video": {
      const video = message.video;
      if (!video) return html`<p class="bubble gone">${t("videoGone")}</p>`;
      return html`<a class="msg-card video-card-msg" href="/video/${video.id}">
        <span class="msg-still">${video.icon ? html`<img src="${media(video.icon, 480)}" alt="" width="240" height="135" decoding="async">` : ""}<span class="msg-still-play">${icon("play")}</span></span>
        <span class="msg-card-text"><span class="msg-card-title">${video.title}</span>
        <span class="msg-card-sub">${t("sharedVideo")}${video.singer?.name ? ` · ${video.singer.name}` : ""}</span></span></a>`;
    }
    default:
      return html`<p class="bubble gone">${t("previewGone")}</p>`;
  }
}

function bubble(message, user) {
  const mine = message.sender.id === user;
  return html`<li class="msg ${mine ? "mine" : "theirs"} kind-${message.kind}" data-id="${message.id}">
    <a class="msg-av" href="/user/${message.sender.id}" tabindex="-1" aria-hidden="true">${avatar(message.sender, 36)}</a>
    <div class="msg-body" tabindex="0" aria-label="${`${message.sender.nickname}: ${preview(message)}`}">${content(message)}</div></li>`;
}

/** The chat with one person in `pane`: by conversation id, or with a person (`userId`) not yet written to.
 * Returns the way to stop it. */
function chatView(pane, { conversationId, userId, wide }) {
  const user = me();
  let other = null;
  let items = [];
  let hasOlder = false;
  let loadingOlder = false;
  let unread = false;
  let sending = false;
  let stopped = false;
  // Enter pressed before the chat had loaded (its person unknown yet): sent once it has.
  let sendWhenLoaded = false;
  setHTML(pane, html`<header class="top-bar chat-bar">
      <button class="icon-btn back-btn chat-back" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <a class="chat-who"><span class="chat-name"></span></a>
      <button class="icon-btn chat-more" type="button" aria-label="${t("more2")}" hidden>${icon("more")}</button></header>
    <div class="chat-scroll" tabindex="-1"><div class="chat-older" role="status"></div>
      <ol class="chat-list" aria-live="polite">${loadingBlock()}</ol></div>
    <form class="chat-composer" autocomplete="off">
      <button type="button" class="icon-btn chat-tool chat-share" aria-label="${t("shareSong")}" title="${t("shareSong")}">${icon("note")}</button>
      <label class="icon-btn chat-tool chat-pic" title="${t("sendPicture")}">${icon("image")}<span class="visually-hidden">${t("sendPicture")}</span>
        <input type="file" accept="${PICTURE_TYPES.join(",")}" class="visually-hidden chat-file"></label>
      <div class="chat-field"><textarea class="chat-input" name="text" rows="1" placeholder="${t("messagePlaceholder")}" aria-label="${t("messagePlaceholder")}" enterkeyhint="send"></textarea>
        <span class="chat-count" aria-live="polite"></span></div>
      <button class="pill-btn primary chat-send" type="submit" disabled>${t("send")}</button>
    </form>`);
  const scroll = pane.querySelector(".chat-scroll");
  const list = pane.querySelector(".chat-list");
  const older = pane.querySelector(".chat-older");
  const form = pane.querySelector(".chat-composer");
  const input = pane.querySelector(".chat-input");
  const sendButton = pane.querySelector(".chat-send");
  const counter = pane.querySelector(".chat-count");
  pane.querySelector(".chat-back").addEventListener("click", () => back("/messages"));

  const nearBottom = () => scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight < 80;
  const toBottom = () => { scroll.scrollTop = scroll.scrollHeight; };

  const draw = () => {
    if (!items.length) {
      setHTML(list, html`<li class="chat-start">${other ? avatar(other, 64) : ""}<p>${t("chatStart")}</p></li>`);
      return;
    }
    const rows = [];
    let previous = 0;
    for (const message of items) {
      const at = new Date(message.createdAt).getTime() || 0;
      if (!previous || at - previous > GAP) rows.push(html`<li class="msg-time" aria-hidden="true">${chatTime(message.createdAt)}</li>`);
      previous = at;
      rows.push(bubble(message, user));
    }
    setHTML(list, rows);
  };
  const drawHead = () => {
    const who = pane.querySelector(".chat-who");
    who.href = `/user/${other.id}`;
    setHTML(who, html`${avatar(other, 32)}<span class="chat-name">${other.nickname}</span>`);
    pane.querySelector(".chat-more").hidden = false;
  };
  const setConversation = (id) => {
    conversationId = id;
    // The address names the conversation from now on (no new screen: the chat stays as it is).
    history.replaceState(history.state, "", `/messages/${id}`);
  };

  /** Marks read up to the newest message from the other person, when one came that is not read yet and the
   * chat is in view. */
  const markRead = () => {
    if (!unread || !conversationId || document.visibilityState !== "visible" || stopped) return;
    const last = [...items].reverse().find((m) => m.sender.id !== user);
    if (!last) return;
    unread = false;
    messages.markRead({ id: conversationId }, { messageId: last.id }).then((conversation) => {
      const known = cache?.items?.find((c) => c.id === conversation.id);
      if (known) known.unreadCount = conversation.unreadCount;
      refreshMessages();
    }, () => { unread = true; });
  };

  const add = (message, scrollDown) => {
    if (items.some((m) => m.id === message.id)) return;
    const wasNear = nearBottom();
    items.push(message);
    items.sort(byId);
    draw();
    if (wasNear || scrollDown) toBottom();
  };

  const loadOlder = async () => {
    if (loadingOlder || !hasOlder || !conversationId || !items.length) return;
    loadingOlder = true;
    setHTML(older, html`<span class="spinner" aria-hidden="true"></span>${t("loadingOlder")}`);
    try {
      const page = await messages.messages({ id: conversationId, before: items[0].id, size: PAGE });
      if (stopped) return;
      const fromBottom = scroll.scrollHeight - scroll.scrollTop;
      items = [...page.data.filter((m) => !items.some((o) => o.id === m.id)), ...items];
      hasOlder = page.hasOlder;
      draw();
      scroll.scrollTop = scroll.scrollHeight - fromBottom;
    } catch (error) {
      toast(error.message);
    } finally {
      loadingOlder = false;
      older.replaceChildren();
    }
    // Still at the top (a short page): the next older ones.
    if (hasOlder && scroll.scrollTop < 120) loadOlder();
  };
  scroll.addEventListener("scroll", () => { if (scroll.scrollTop < 120) loadOlder(); }, { passive: true });

  // What a message opens: its picture, its song (played), its sheet or video (links).
  list.addEventListener("click", (event) => {
    const act = event.target.closest("[data-act]");
    if (!act) return;
    const message = items.find((m) => m.id === act.closest(".msg")?.dataset.id);
    if (!message) return;
    if (act.dataset.act === "picture" && message.image) viewer([{ uri: message.image.uri }]);
    else if (act.dataset.act === "song" && message.song) {
      if (engine.song?.id === message.song.id) engine.play();
      else engine.playNow(message.song);
    }
  });
  // Long press or right click on a message: copy its text, delete it for oneself.
  pressMenu(list, ".msg-body", async (body) => {
    const message = items.find((m) => m.id === body.closest(".msg")?.dataset.id);
    if (!message) return;
    const choice = await actionSheet({ title: t("messageActions"), subtitle: preview(message).slice(0, 60), items: [
      ...(message.kind === "text" ? [{ label: t("copy"), value: "copy", icon: "edit" }] : []),
      { label: t("delete"), value: "delete", icon: "trash" },
    ] });
    if (choice === "copy") {
      navigator.clipboard?.writeText(message.content).then(() => toast(t("copied")), () => {});
    } else if (choice === "delete") {
      try {
        await messages.delete({ id: message.id });
        items = items.filter((m) => m.id !== message.id);
        draw();
        const known = cache?.items?.find((c) => c.id === conversationId);
        if (known?.lastMessage?.id === message.id) known.lastMessage = items[items.length - 1] ?? null;
        toast(t("deleted"));
      } catch (error) {
        toast(error.message);
      }
    }
  });

  pane.querySelector(".chat-more").addEventListener("click", async () => {
    const choice = await actionSheet({ title: other.nickname, items: [
      { label: t("profileOf", { name: other.nickname }), value: "profile", icon: "user" },
      ...(conversationId ? [{ label: t("deleteConversation"), value: "delete", icon: "trash" }] : []),
    ] });
    if (choice === "profile") navigate(`/user/${other.id}`);
    else if (choice === "delete") {
      const known = cache?.items?.find((c) => c.id === conversationId) ?? { id: conversationId, user: other };
      deleteConversation(known, () => navigate("/messages", { replace: true }));
    }
  });

  // Writing: Enter sends (Shift+Enter is a new line; not while an input method is composing).
  const update = () => {
    const length = [...input.value].length;
    counter.textContent = length > MAX - 200 ? `${length}/${MAX}` : "";
    counter.classList.toggle("over", length > MAX);
    sendButton.disabled = sending || !input.value.trim() || !other;
    input.style.height = "auto";
    input.style.height = `${Math.min(120, input.scrollHeight + 2)}px`;
    if (sendWhenLoaded && other && !sending) {
      sendWhenLoaded = false;
      if (input.value.trim()) form.requestSubmit();
    }
  };
  input.addEventListener("input", update);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      if (!sendButton.disabled) form.requestSubmit();
      else if (!other && input.value.trim()) sendWhenLoaded = true;
    }
  });
  const send = async (draft) => {
    if (sending || !other) return false;
    sending = true;
    update();
    try {
      const message = await messages.send({}, { userId: other.id, ...draft });
      if (stopped) return true;
      if (!conversationId) setConversation(message.conversationId);
      add(message, true);
      return true;
    } catch (error) {
      // The server's sentence: too long, blocked, only people they follow, too many a minute.
      toast(error.message);
      return false;
    } finally {
      sending = false;
      if (!stopped) update();
    }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    if (await send({ kind: "text", content: text })) {
      input.value = "";
      update();
    }
    input.focus();
  });
  pane.querySelector(".chat-share").addEventListener("click", () => {
    const song = engine.song;
    if (!song) { toast(t("nothingPlaying")); return; }
    send({ kind: "song", songId: song.id });
  });
  pane.querySelector(".chat-file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file || !other) return;
    try {
      const { blob } = await resizePicture(file);
      const stored = await uploadPicture(blob, file.name, (p) => toast(t("uploading", { p: `${Math.round(p * 100)}%` })));
      await send({ kind: "image", fileId: stored.id });
    } catch (error) {
      toast(error.message);
    }
  });

  // Live: a new message of this conversation (from either side, from any device), a deletion elsewhere.
  const onMessage = ({ detail }) => {
    const message = detail.message;
    if (!message || stopped) return;
    const mine = message.sender.id === user;
    if (conversationId ? message.conversationId !== conversationId : mine || message.sender.id !== other?.id) return;
    if (!conversationId) setConversation(message.conversationId);
    add(message, mine);
    if (!mine) {
      unread = true;
      markRead();
    }
  };
  const onConversation = ({ detail }) => {
    if (detail.deleted && detail.conversationId === conversationId) {
      items = [];
      hasOlder = false;
      draw();
    }
  };
  const onVisible = () => { if (document.visibilityState === "visible") markRead(); };
  live.addEventListener("message", onMessage);
  live.addEventListener("conversation", onConversation);
  document.addEventListener("visibilitychange", onVisible);

  const fail = (error) => {
    if (stopped) return;
    setHTML(list, html`<li>${errorBlock(error)}</li>`);
    list.querySelector("[data-action=retry]")?.addEventListener("click", () => start());
  };
  const start = async () => {
    try {
      if (!conversationId) {
        // With a person: their conversation when there is one (the list is searched), else a new chat.
        const profile = await accounts.profile({ id: userId });
        if (stopped) return;
        other = { id: profile.id, nickname: profile.nickname, icon: profile.icon };
        drawHead();
        const found = await findConversation(userId);
        if (stopped) return;
        if (found) {
          navigate(`/messages/${found.id}`, { replace: true });
          return;
        }
        items = [];
        draw();
        update();
        input.focus();
        return;
      }
      const known = cache?.userId === user ? cache.items?.find((c) => c.id === conversationId) : null;
      const [conversation, page] = await Promise.all([
        known ? Promise.resolve(known) : messages.conversation({ id: conversationId }),
        messages.messages({ id: conversationId, size: PAGE }),
      ]);
      if (stopped) return;
      other = conversation.user;
      drawHead();
      // Messages may have come live while these were on their way.
      items = [...page.data, ...items.filter((m) => !page.data.some((o) => o.id === m.id))].sort(byId);
      hasOlder = page.hasOlder;
      unread = conversation.unreadCount > 0;
      draw();
      toBottom();
      update();
      markRead();
      if (hasOlder && scroll.scrollHeight <= scroll.clientHeight + 120) loadOlder();
      if (wide || matchMedia("(pointer: fine)").matches) input.focus({ preventScroll: true });
    } catch (error) {
      fail(error);
    }
  };
  start();
  return () => {
    stopped = true;
    live.removeEventListener("message", onMessage);
    live.removeEventListener("conversation", onConversation);
    document.removeEventListener("visibilitychange", onVisible);
  };
}

/** One's conversation with `userId`: the cached list's, else the server's (`?userId=`). */
async function findConversation(userId) {
  const cached = cache?.userId === me() ? cache.items?.find((c) => c.user.id === userId) : null;
  if (cached) return cached;
  const page = await messages.conversations({ userId });
  return page.data[0] ?? null;
}

export async function mount(root, { params }) {
  if (!store.get().user) {
    navigate(`/login?next=${encodeURIComponent(location.pathname)}`, { replace: true });
    return;
  }
  const wide = WIDE.matches;
  const chatOpen = !!(params.id || params.userId);
  root.classList.toggle("in-chat", chatOpen);
  const stops = [];
  const listPane = html`<section class="conv-pane"><header class="top-bar conv-bar">
      <button class="icon-btn back-btn conv-back" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("messages")}</h1></header><div class="conv-box"></div></section>`;
  if (wide) {
    setHTML(root, html`<div class="messages-split">${listPane}<section class="chat-pane" aria-label="${t("messages")}"></section></div>`);
  } else {
    setHTML(root, chatOpen ? html`<section class="chat-pane"></section>` : listPane);
  }
  root.querySelector(".conv-back")?.addEventListener("click", () => back("/inbox"));
  const box = root.querySelector(".conv-box");
  if (box) {
    stops.push(conversationList(box, {
      activeId: params.id,
      onDeleted: (conversation) => {
        if (conversation.id === params.id) navigate("/messages", { replace: true });
        else refresh();
      },
    }));
  }
  const pane = root.querySelector(".chat-pane");
  if (pane && chatOpen) stops.push(chatView(pane, { conversationId: params.id, userId: params.userId, wide }));
  else if (pane) setHTML(pane, html`<div class="chat-none">${icon("chat")}<p>${t("pickConversation")}</p></div>`);
  // Crossing the wide-screen width changes the layout.
  const onWidth = () => refresh();
  WIDE.addEventListener("change", onWidth);
  return () => {
    WIDE.removeEventListener("change", onWidth);
    for (const stop of stops) stop();
  };
}
