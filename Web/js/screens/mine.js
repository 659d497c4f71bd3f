// My Music: who I am, the shortcuts (recently played, downloads, I like, messages), my sheets and collected
// sheets.
import { sheets } from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { replaceWithHTML, setHTML, html, img, toast, promptDialog, loadingBlock, errorBlock } from "../ui.js";
import { media } from "../media.js";
import * as downloads from "../downloads.js";

function sheetRow(sheet, title = sheet.title, byline = false) {
  return html`<li><a class="sheet-row" href="/sheet/${sheet.id}">
    ${sheet.kind === "likes" ? html`<span class="img likes-cover" aria-hidden="true">${icon("heartFill")}</span>` : img(sheet, 52, "", "")}
    <span class="sheet-text"><span class="sheet-title">${title}</span>
    <span class="sheet-sub">${t("tracks", { n: sheet.songsCount })}${byline && sheet.user ? ` · ${t("by", { name: sheet.user.nickname })}` : ""}</span></span>
    ${icon("right", "chev")}</a></li>`;
}

export async function mount(root) {
  const user = store.get().user;
  const shortcut = (href, iconName, label, note = "") => html`<a class="shortcut" href="${href}"><span class="shortcut-icon">${icon(iconName)}</span>
    <span>${label}</span>${note ? html`<span class="shortcut-note">${note}</span>` : ""}</a>`;
  setHTML(root, html`<header class="top-bar mine-bar"><h1 class="top-title">${t("mine")}</h1>
      <a class="icon-btn" href="/settings" aria-label="${t("settings")}">${icon("tune")}</a></header>
    <div class="mine">
      <section class="profile-card">
        ${user
          ? html`<span class="avatar-big">${user.icon ? html`<img src="${media(user.icon, 128)}" alt="" width="64" height="64">` : icon("user")}</span>
             <div class="profile-text"><h2 class="profile-name">${user.nickname}</h2><p class="profile-sub">ID ${user.userId}</p></div>
             <a class="pill-btn my-page" href="/user/${user.userId}">${t("myPage")}${icon("right")}</a>`
          : html`<span class="avatar-big">${icon("user")}</span><div class="profile-text"><h2 class="profile-name">${t("signInToSee")}</h2>
             <a class="pill-btn primary" href="/login">${t("signIn")}</a></div>`}
      </section>
      <nav class="shortcuts">
        ${shortcut("/mine/recent", "history", t("recentPlays"))}
        ${shortcut("/mine/downloads", "download", t("downloads"), String(downloads.list().length))}
        <span class="likes-shortcut"></span>
        ${shortcut("/shop", "star", t("shop"))}
        ${user ? html`<a class="shortcut messages-shortcut" href="/messages"><span class="shortcut-icon">${icon("chat")}</span><span>${t("messages")}</span>
          <span class="badge badge-slot" data-badge="messages" hidden></span></a>` : ""}
      </nav>
      <div class="mine-sheets">${user ? loadingBlock() : ""}</div>
    </div>`);
  if (!user) return;
  import("../badge.js").then((module) => module.drawBadges());
  const box = root.querySelector(".mine-sheets");
  const load = async () => {
    try {
      const [created, collected] = await Promise.all([
        sheets.created({ id: user.userId, size: 100 }),
        sheets.collected({ id: user.userId, size: 100 }),
      ]);
      if (!root.isConnected) return;
      const likes = created.data.find((s) => s.kind === "likes");
      const own = created.data.filter((s) => s.kind !== "likes");
      if (likes) {
        store.set({ likesSheetId: likes.id });
        replaceWithHTML(root.querySelector(".likes-shortcut"), shortcut(`/sheet/${likes.id}`, "heart", t("iLike"), String(likes.songsCount)));
      }
      setHTML(box, html`<section class="section card-section"><div class="section-head"><h2>${t("mySheets")} <span class="count">${own.length + (likes ? 1 : 0)}</span></h2>
          <button class="icon-btn new-sheet" type="button" aria-label="${t("newSheet")}" title="${t("newSheet")}">${icon("plus")}</button></div>
          <ul class="sheet-rows">${likes ? sheetRow(likes, t("iLike")) : ""}${own.map((s) => sheetRow(s))}</ul></section>
        <section class="section card-section"><div class="section-head"><h2>${t("collectedSheets")} <span class="count">${collected.total}</span></h2></div>
          <ul class="sheet-rows">${collected.data.map((s) => sheetRow(s, s.title, true))}</ul></section>`);
      box.querySelector(".new-sheet").addEventListener("click", async () => {
        const title = await promptDialog({ title: t("newSheet"), placeholder: t("sheetTitle"), ok: t("create") });
        if (!title) return;
        try {
          const sheet = await sheets.create({}, { title });
          toast(t("created"));
          navigate(`/sheet/${sheet.id}`);
        } catch (error) {
          toast(error.message);
        }
      });
    } catch (error) {
      if (!root.isConnected) return;
      setHTML(box, errorBlock(error));
      box.querySelector("[data-action=retry]").addEventListener("click", load);
    }
  };
  await load();
}
