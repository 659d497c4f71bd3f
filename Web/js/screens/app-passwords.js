// App passwords for Subsonic apps (issue 18): one per device, shown once when made, listed by name and last
// use, revoked with a tap (the app using it is signed out at once).
import { appPasswords } from "../api.js";
import * as store from "../store.js";
import { back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, errorBlock, emptyBlock, loadingBlock, promptDialog, confirmDialog, openDialog } from "../ui.js";
import "../i18n-social.js";

function row(password) {
  const used = password.lastUsedAt ? t("appPasswordUsed", { when: password.lastUsedAt.slice(0, 16).replace("T", " ") }) : t("appPasswordUnused");
  return html`<li class="app-password" data-id="${password.id}"><div class="app-password-text">
      <div class="app-password-name">${password.name}</div><div class="setting-note">${used}</div></div>
      <button type="button" class="pill-btn small revoke" data-id="${password.id}">${t("revoke")}</button></li>`;
}

/** Shows a new password once, with what to type into the app. */
function showOnce(made) {
  return openDialog("modal", html`<div class="modal-body"><h2 class="modal-title">${t("appPasswordMade")}</h2>
      <p class="modal-text">${t("appPasswordOnce")}</p>
      <dl class="app-password-facts"><dt>${t("appServer")}</dt><dd class="mono">${location.origin}</dd>
      <dt>${t("appUser")}</dt><dd class="mono">${made.username}</dd>
      <dt>${t("appPassword")}</dt><dd class="mono new-app-password">${made.password}</dd></dl>
      <div class="modal-actions"><button type="button" class="pill-btn primary done">${t("ok")}</button></div></div>`,
  (dialog, close) => dialog.querySelector(".done").addEventListener("click", () => close(null)),
  { backdropCloses: false });
}

export async function mount(root) {
  const me = store.get().user;
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("appPasswords")}</h1></header>
    <div class="settings"><p class="setting-note">${t("appPasswordsAbout")}</p>
      <button class="pill-btn wide primary make" type="button">${t("appPasswordNew")}</button>
      <ul class="app-passwords"><li>${loadingBlock()}</li></ul></div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/settings"));
  if (!me) { setHTML(root.querySelector(".app-passwords"), html`<li>${emptyBlock(t("loginToComment"))}</li>`); return; }
  const list = root.querySelector(".app-passwords");
  const show = async () => {
    try {
      const items = await appPasswords.list({ id: me.userId });
      if (!root.isConnected) return;
      setHTML(list, items.length ? items.map(row) : html`<li>${emptyBlock(t("appPasswordNone"))}</li>`);
    } catch (error) {
      if (root.isConnected) setHTML(list, html`<li>${errorBlock(error)}</li>`);
    }
  };
  root.querySelector(".settings").addEventListener("click", async (event) => {
    if (event.target.closest(".make")) {
      const name = await promptDialog({ title: t("appPasswordNew"), placeholder: t("appPasswordDevice"), maxLength: 64 });
      if (!name) return;
      try {
        showOnce(await appPasswords.create({ id: me.userId }, { name }));
        show();
      } catch (error) {
        toast(error.message);
      }
      return;
    }
    const revoke = event.target.closest(".revoke");
    if (revoke) {
      if (!(await confirmDialog(t("appPasswordRevoke")))) return;
      try {
        await appPasswords.revoke({ id: me.userId, passwordId: revoke.dataset.id });
        revoke.closest(".app-password").remove();
        if (!list.querySelector(".app-password")) setHTML(list, html`<li>${emptyBlock(t("appPasswordNone"))}</li>`);
      } catch (error) {
        toast(error.message);
      }
    }
  });
  show();
}
