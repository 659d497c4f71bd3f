// The writing box of comments and moments: a text area with a counter, an emoji picker, an @friend
// picker (`/v1/searches/users`, the people one follows first) and a #topic# picker.
import * as store from "./store.js";
import { follows, comments } from "./api.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { setHTML, html } from "./ui.js";
import { avatar } from "./social.js";
import "./i18n-social.js";

const EMOJI = ["😀", "😂", "🤣", "😊", "😍", "🥰", "😘", "😎", "🤔", "😴", "😭", "😡", "😱", "🥳", "😇", "🙃",
  "👍", "👏", "🙏", "💪", "👌", "✌️", "🤝", "❤️", "💔", "🔥", "✨", "🎵", "🎶", "🎧", "🎤", "🎸", "🎹", "🥁",
  "🌙", "⭐", "🌈", "☔", "🌸", "🍀", "☕", "🍺", "🎉", "💯"];

/** Inserts `text` at the caret of `field`. */
function insert(field, text) {
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  field.setRangeText(text, start, end, "end");
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.focus();
}

/** Mounts a composer into `box`; `send(text)` is awaited on submit (a thrown error is shown). */
export function composer(box, { placeholder = t("writeComment"), max = 1000, send, multiline = false, submitLabel = t("send") }) {
  box.classList.add("composer");
  setHTML(box, html`<div class="composer-reply" hidden><span class="composer-reply-text"></span>
      <button type="button" class="icon-btn composer-reply-cancel" aria-label="${t("cancel")}">${icon("close")}</button></div>
    <form class="composer-form">
      <textarea class="composer-input" name="text" rows="${multiline ? 5 : 1}" placeholder="${placeholder}" aria-label="${placeholder}"></textarea>
      <div class="composer-bar">
        <button type="button" class="icon-btn composer-tool" data-tool="emoji" aria-label="${t("emoji")}" aria-expanded="false">${icon("emoji")}</button>
        <button type="button" class="icon-btn composer-tool" data-tool="mention" aria-label="${t("mention")}">${icon("at")}</button>
        <button type="button" class="icon-btn composer-tool" data-tool="topic" aria-label="${t("topic")}">${icon("hash")}</button>
        <span class="composer-count" aria-live="polite"></span>
        <button class="pill-btn primary composer-send" type="submit" disabled>${submitLabel}</button>
      </div>
      <p class="composer-error form-error" role="alert"></p>
    </form>
    <div class="composer-panel" hidden></div>`);
  const field = box.querySelector(".composer-input");
  const count = box.querySelector(".composer-count");
  const sendButton = box.querySelector(".composer-send");
  const error = box.querySelector(".composer-error");
  const panel = box.querySelector(".composer-panel");
  const replyBox = box.querySelector(".composer-reply");
  let replyTo = null;
  let searchTimer = 0;
  let searchSeq = 0;

  const update = () => {
    const length = [...field.value].length;
    const over = length > max;
    count.textContent = length > max * 0.8 ? `${length}/${max}` : "";
    count.classList.toggle("over", over);
    error.textContent = over ? t("tooLong", { n: max }) : "";
    sendButton.disabled = !field.value.trim() || over;
    if (!multiline) {
      field.style.height = "auto";
      field.style.height = `${Math.min(field.scrollHeight, 120)}px`;
    }
  };
  field.addEventListener("input", update);

  const closePanel = () => {
    panel.hidden = true;
    panel.replaceChildren();
    for (const b of box.querySelectorAll(".composer-tool")) b.setAttribute("aria-expanded", "false");
  };

  const people = async (query) => {
    const seq = ++searchSeq;
    const list = panel.querySelector(".picker-list");
    try {
      const me = store.get().user;
      const found = query
        ? await follows.searchUsers({ query, size: 20 })
        : me ? (await follows.friends({ id: me.userId, size: 20 })).data : [];
      if (seq !== searchSeq || !list.isConnected) return;
      const users = Array.isArray(found) ? found : found.data ?? [];
      setHTML(list, users.length ? users.map((u) => html`<li><button type="button" class="picker-item" data-nick="${u.nickname}">${avatar(u, 32)}<span>${u.nickname}</span></button></li>`)
        : html`<li class="picker-empty">${query ? t("noPeople") : t("typeToSearch")}</li>`);
    } catch (e) {
      if (seq === searchSeq && list.isConnected) setHTML(list, html`<li class="picker-empty">${e.message}</li>`);
    }
  };

  const topicsList = async () => {
    const list = panel.querySelector(".picker-list");
    try {
      const page = await comments.topics({ size: 20 });
      if (!list.isConnected) return;
      setHTML(list, page.data.map((tp) => html`<li><button type="button" class="picker-item" data-topic="${tp.title}">${icon("hash")}<span>${tp.title}</span></button></li>`))
        || html`<li class="picker-empty">${t("newTopic")}</li>`;
    } catch {
      list.replaceChildren();
    }
  };

  box.addEventListener("click", (event) => {
    const tool = event.target.closest(".composer-tool");
    if (tool) {
      const open = tool.getAttribute("aria-expanded") === "true";
      closePanel();
      if (open) return;
      tool.setAttribute("aria-expanded", "true");
      panel.hidden = false;
      const kind = tool.dataset.tool;
      if (kind === "emoji") {
        setHTML(panel, html`<div class="emoji-grid" role="listbox" aria-label="${t("emoji")}">${EMOJI.map((e) => html`<button type="button" class="emoji" role="option" data-emoji="${e}">${e}</button>`)}</div>`);
      } else if (kind === "mention") {
        setHTML(panel, html`<div class="picker"><input class="text-input picker-search" type="search" placeholder="${t("typeToSearch")}" aria-label="${t("pickFriend")}" autocomplete="off">
          <ul class="picker-list mention-list"></ul></div>`);
        const input = panel.querySelector(".picker-search");
        input.addEventListener("input", () => {
          clearTimeout(searchTimer);
          searchTimer = setTimeout(() => people(input.value.trim()), 150);
        });
        input.focus();
        people("");
      } else {
        setHTML(panel, html`<div class="picker"><form class="topic-new"><input class="text-input picker-search" name="title" maxlength="30" placeholder="${t("newTopic")}" aria-label="${t("pickTopic")}" autocomplete="off"></form>
          <ul class="picker-list topic-list"></ul></div>`);
        panel.querySelector(".topic-new").addEventListener("submit", (e) => {
          e.preventDefault();
          const title = e.target.title.value.replace(/#/g, "").trim();
          if (title) { insert(field, `#${title}# `); closePanel(); }
        });
        topicsList();
      }
      return;
    }
    const emoji = event.target.closest("[data-emoji]");
    if (emoji) { insert(field, emoji.dataset.emoji); return; }
    const person = event.target.closest("[data-nick]");
    if (person) { insert(field, `@${person.dataset.nick} `); closePanel(); return; }
    const topic = event.target.closest("[data-topic]");
    if (topic) { insert(field, `#${topic.dataset.topic}# `); closePanel(); return; }
    if (event.target.closest(".composer-reply-cancel")) api.reply(null);
  });

  box.querySelector(".composer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (!text) return;
    if ([...text].length > max) { error.textContent = t("tooLong", { n: max }); return; }
    sendButton.disabled = true;
    error.textContent = "";
    try {
      await send(text, replyTo);
      field.value = "";
      api.reply(null);
      closePanel();
    } catch (e) {
      error.textContent = e.message;
    }
    update();
  });
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey || (!multiline && !event.shiftKey))) {
      event.preventDefault();
      box.querySelector(".composer-form").requestSubmit();
    }
  });

  const api = {
    field,
    /** Replies to `comment` (quoted above the box), or stops replying with null. */
    reply(comment) {
      replyTo = comment;
      replyBox.hidden = !comment;
      if (comment) {
        box.querySelector(".composer-reply-text").textContent = `${t("replyTo", { name: comment.user.nickname })}${comment.content.slice(0, 40)}`;
        field.placeholder = t("replyTo", { name: comment.user.nickname });
        field.focus();
      } else {
        field.placeholder = placeholder;
      }
    },
    get value() { return field.value; },
  };
  update();
  return api;
}
