// Settings: theme, language, the desktop lyrics' look, storage used by downloads, who may send one messages,
// app passwords for Subsonic apps, and signing out.
import { server, accounts, messages } from "../api.js";
import * as store from "../store.js";
import { back } from "../router.js";
import { t, bytes } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, confirmDialog, promptDialog } from "../ui.js";
import * as downloads from "../downloads.js";
import { signOut, signOutHere } from "../session.js";
import { navigate } from "../router.js";
import { lyricPrefs, setLyricPrefs, COLORS } from "../floating-lyrics.js";
import "../i18n-social.js";
import "../i18n-chat.js";

function segmented(name, value, options) {
  return html`<div class="segmented" role="radiogroup" aria-label="${t(name)}">${options.map(([v, label]) =>
    html`<button type="button" role="radio" class="seg${v === value ? " on" : ""}" aria-checked="${v === value}" data-setting="${name}" data-value="${v}">${label}</button>`)}</div>`;
}

export async function mount(root) {
  const state = store.get();
  const prefs = lyricPrefs();
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("settings")}</h1></header>
    <div class="settings">
      <section class="card-section setting"><h2>${t("theme")}</h2>
        ${segmented("theme", state.theme, [["system", t("themeSystem")], ["light", t("themeLight")], ["dark", t("themeDark")]])}</section>
      <section class="card-section setting"><h2>${t("language")}</h2>
        ${segmented("lang", state.lang, [["auto", t("langAuto")], ["zh", "中文"], ["en", "English"]])}</section>
      <section class="card-section setting"><h2>${t("audioQuality")} <span class="setting-note">${t("mobileData")}</span></h2>
        ${segmented("quality", String(store.load("cm.quality", "0")), [["0", t("qualityAuto")], ["128", t("qualityStandard")], ["192", t("qualityHigh")], ["320", t("qualityExtreme")]])}</section>
      <section class="card-section setting"><h2>${t("desktopLyrics")}</h2>
        <label class="setting-row"><span>${t("lyricSize")}</span>
          <input class="range lyric-size" type="range" min="16" max="48" value="${prefs.size}"></label>
        <div class="setting-row"><span>${t("lyricColor")}</span><div class="swatches">${COLORS.map((c) =>
          html`<button type="button" class="swatch swatch-${c.slice(1)}${c === prefs.color ? " on" : ""}" data-color="${c}" aria-label="${c}" aria-pressed="${c === prefs.color}"></button>`)}</div></div>
      </section>
      <section class="card-section setting"><h2>${t("downloads")}</h2>
        <p class="setting-note storage-note"></p>
        <div class="setting-actions"><a class="pill-btn" href="/mine/downloads">${t("downloads")}</a>
          <button class="pill-btn free-all" type="button">${t("freeStorage")}</button></div></section>
      ${state.user ? html`<section class="card-section setting message-setting"><h2>${t("whoCanMessage")}</h2>
        <div class="segmented" role="radiogroup" aria-label="${t("whoCanMessage")}">${[["everyone", t("allowEveryone")], ["following", t("allowFollowing")]].map(([v, label]) =>
          html`<button type="button" role="radio" class="seg allow-seg" aria-checked="false" data-allow="${v}" disabled>${label}</button>`)}</div></section>` : ""}
      ${state.user ? html`<section class="card-section setting account-actions">
        <a class="setting-link" href="/mine/profile">${icon("edit")}<span>${t("editProfile")}</span>${icon("right", "chev")}</a>
        <a class="setting-link" href="/settings/blocks">${icon("close")}<span>${t("blocklist")}</span>${icon("right", "chev")}</a>
        <a class="setting-link app-passwords-link" href="/settings/app-passwords">${icon("edit")}<span>${t("appPasswords")}</span>${icon("right", "chev")}</a>
        <button class="pill-btn wide danger sign-out" type="button">${t("signOut")}</button>
        <button class="pill-btn wide sign-out-all" type="button">${t("signOutAll")}</button>
        <button class="text-btn delete-account" type="button">${t("deleteAccount")}</button></section>` : ""}
      <p class="setting-note about"></p>
    </div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/mine"));
  // Who may send me messages: everyone (the server's default) or only people I follow.
  const showAllow = (value) => {
    for (const seg of root.querySelectorAll(".allow-seg")) {
      seg.disabled = false;
      seg.classList.toggle("on", seg.dataset.allow === value);
      seg.setAttribute("aria-checked", String(seg.dataset.allow === value));
    }
  };
  let allowFrom = null;
  if (state.user) {
    messages.settings().then((settings) => {
      allowFrom = settings.allowFrom;
      if (root.isConnected) showAllow(allowFrom);
    }, () => {});
  }
  root.querySelector(".settings").addEventListener("click", async (event) => {
    const allow = event.target.closest(".allow-seg");
    if (allow) {
      const value = allow.dataset.allow;
      if (value === allowFrom) return;
      showAllow(value);
      try {
        allowFrom = (await messages.saveSettings({}, { allowFrom: value })).allowFrom;
        toast(t("saved"));
      } catch (error) {
        toast(error.message);
      }
      if (root.isConnected) showAllow(allowFrom);
      return;
    }
    const seg = event.target.closest(".seg");
    if (seg) {
      const { setting, value } = seg.dataset;
      store.persist(`cm.${setting}`, value);
      store.set({ [setting]: value });
      for (const other of root.querySelectorAll(`.seg[data-setting="${setting}"]`)) {
        other.classList.toggle("on", other === seg);
        other.setAttribute("aria-checked", String(other === seg));
      }
      return;
    }
    const swatch = event.target.closest(".swatch");
    if (swatch) {
      setLyricPrefs({ color: swatch.dataset.color });
      for (const other of root.querySelectorAll(".swatch")) {
        other.classList.toggle("on", other === swatch);
        other.setAttribute("aria-pressed", String(other === swatch));
      }
      return;
    }
    if (event.target.closest(".free-all")) {
      if (!(await confirmDialog(t("confirmClear")))) return;
      await downloads.clearAll();
      toast(t("deleted"));
      showStorage();
    } else if (event.target.closest(".sign-out-all")) {
      if (!(await confirmDialog(t("signOutAll") + "?"))) return;
      try {
        const list = await accounts.sessions();
        for (const session of (list.data ?? list).filter((s) => !s.current)) await accounts.revokeSession({ id: session.id });
        await signOut();
        toast(t("signedOutAll"));
        back("/");
      } catch (error) {
        toast(error.message);
      }
    } else if (event.target.closest(".sign-out")) {
      await signOut();
      back("/");
    } else if (event.target.closest(".delete-account")) {
      const password = await promptDialog({ title: t("deleteAccount"), placeholder: t("deletePrompt"), ok: t("delete"), maxLength: 128 });
      if (!password) return;
      try {
        await accounts.deleteAccount({ id: state.user.userId }, { password });
        signOutHere();
        toast(t("accountDeleted"));
        navigate("/", { replace: true });
      } catch (error) {
        toast(error.message);
      }
    }
  });
  root.querySelector(".lyric-size").addEventListener("input", (event) => setLyricPrefs({ size: Number(event.target.value) }));
  const showStorage = async () => {
    const use = await downloads.usage();
    const note = root.querySelector(".storage-note");
    if (note) note.textContent = t("storageUsed", { used: bytes(use.downloads), quota: bytes(use.quota) });
  };
  showStorage();
  server.info().then((info) => {
    const about = root.querySelector(".about");
    if (about) about.textContent = `${info.name} ${info.version} · API ${info.apiVersion}`;
  }).catch(() => {});
}
