// The home's actions that run only when tapped, loaded then (so the first render does not carry them):
// 每日推荐 and 私人FM, and the screen that reorders and hides the home's modules.
import { home as homeAPI, recommendations } from "../api.js";
import * as store from "../store.js";
import { engine } from "../player.js";
import { t, extend } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, openDialog } from "../ui.js";
import { navigate } from "../router.js";

extend({
  zh: { resetOrder: "恢复默认", moveUp: "上移 {name}", moveDown: "下移 {name}", save: "保存", saved: "已保存" },
  en: { resetOrder: "Reset", moveUp: "Move {name} up", moveDown: "Move {name} down", save: "Save", saved: "Saved" },
});

/** 每日推荐 and 私人FM: both need the person (the server's are per person). */
export async function startEntry(action, modules) {
  if (!store.get().user) {
    toast(t("signInFirst"));
    navigate(`/login?next=${encodeURIComponent("/")}`);
    return;
  }
  try {
    if (action === "daily") {
      const daily = await recommendations.daily();
      if (daily.songs.length) engine.playList(daily.songs, 0);
      else toast(t("emptyQueue"));
    } else {
      const first = modules.find((m) => m.moduleType === "personalRadio")?.items ?? [];
      const more = await recommendations.radio({ count: 10 }).catch(() => []);
      const songs = [...first, ...more.filter((s) => !first.some((f) => f.id === s.id))];
      if (songs.length) engine.playList(songs, 0);
      else toast(t("emptyQueue"));
    }
  } catch (error) {
    toast(error.message || t("loadFailed"));
  }
}

/** The reorder screen: every module one may see, moved up and down and shown or hidden, saved to the server. */
export async function reorder(root, titleOf, redraw) {
  let layout;
  try {
    layout = await homeAPI.layout();
  } catch (error) {
    toast(error.message || t("loadFailed"));
    return;
  }
  const rows = layout.modules.map((m) => ({ ...m }));
  const draw = (list) => setHTML(list, rows.map((m, i) => html`<li class="layout-row">
      <label class="layout-show"><input type="checkbox" data-show="${i}" ${m.hidden ? "" : html`checked`}><span>${titleOf(m)}</span></label>
      <button class="icon-btn" type="button" data-up="${i}" aria-label="${t("moveUp", { name: titleOf(m) })}" ${i === 0 ? html`disabled` : ""}>${icon("up")}</button>
      <button class="icon-btn" type="button" data-down="${i}" aria-label="${t("moveDown", { name: titleOf(m) })}" ${i === rows.length - 1 ? html`disabled` : ""}>${icon("down")}</button></li>`));
  const saved = await openDialog("modal layout-dialog", html`<div class="modal-body"><h2 class="modal-title">${t("arrangeHome")}</h2>
      <ul class="layout-list"></ul>
      <div class="modal-actions"><button type="button" class="text-btn layout-reset">${t("resetOrder")}</button>
      <button type="button" class="text-btn layout-cancel">${t("cancel")}</button>
      <button type="button" class="pill-btn primary layout-save">${t("save")}</button></div></div>`, (dialog, close) => {
    const list = dialog.querySelector(".layout-list");
    draw(list);
    list.addEventListener("click", (event) => {
      const up = event.target.closest("[data-up]");
      const down = event.target.closest("[data-down]");
      const i = Number((up ?? down)?.dataset.up ?? (up ?? down)?.dataset.down);
      if (!up && !down) return;
      const j = up ? i - 1 : i + 1;
      [rows[i], rows[j]] = [rows[j], rows[i]];
      draw(list);
      list.querySelector(`[data-${up ? "up" : "down"}="${j}"]`)?.focus();
    });
    list.addEventListener("change", (event) => {
      const box = event.target.closest("[data-show]");
      if (box) rows[Number(box.dataset.show)].hidden = !box.checked;
    });
    dialog.querySelector(".layout-cancel").addEventListener("click", () => close(null));
    dialog.querySelector(".layout-reset").addEventListener("click", () => close("reset"));
    dialog.querySelector(".layout-save").addEventListener("click", () => close("save"));
  });
  if (!saved) return;
  try {
    if (saved === "reset") await homeAPI.resetLayout();
    else await homeAPI.saveLayout({}, { modules: rows.map((m) => ({ moduleType: m.moduleType, hidden: m.hidden })) });
    toast(t("saved"));
    redraw();
  } catch (error) {
    toast(error.message || t("loadFailed"));
  }
}

