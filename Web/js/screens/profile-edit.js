// Editing one's profile (nickname, gender, birthday, place, about) and avatar, cropped to a square in the
// browser on a canvas before upload.
import { accounts } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, errorBlock, loadingBlock } from "../ui.js";
import { avatar, PICTURE_TYPES } from "../social.js";
import "../i18n-social.js";

/** A square crop of `file`: drag to move, the slider or the wheel to zoom; resolves to a JPEG blob or null. */
export function cropSquare(file, size = 512) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const picture = new Image();
    picture.onerror = () => { URL.revokeObjectURL(url); reject(new Error(t("notPicture", { name: file.name }))); };
    picture.onload = () => {
      const dialog = document.createElement("dialog");
      dialog.className = "modal crop-dialog";
      setHTML(dialog, html`<div class="modal-body"><h2 class="modal-title">${t("changeAvatar")}</h2>
        <p class="hint">${t("cropHint")}</p>
        <canvas class="crop-canvas" width="600" height="600" aria-label="${t("cropHint")}"></canvas>
        <input class="range crop-zoom" type="range" min="1" max="4" step="0.01" value="1" aria-label="zoom">
        <div class="modal-actions"><button type="button" class="text-btn crop-cancel">${t("cancel")}</button>
        <button type="button" class="pill-btn primary crop-ok">${t("save")}</button></div></div>`);
      document.body.append(dialog);
      const canvas = dialog.querySelector(".crop-canvas");
      const ctx = canvas.getContext("2d");
      const side = Math.min(picture.width, picture.height);
      let zoom = 1;
      let cx = picture.width / 2;
      let cy = picture.height / 2;
      const view = () => side / zoom; // source pixels shown across the square
      const clamp = () => {
        const half = view() / 2;
        cx = Math.min(Math.max(cx, half), picture.width - half);
        cy = Math.min(Math.max(cy, half), picture.height - half);
      };
      const draw = (target = ctx, out = canvas.width) => {
        clamp();
        const v = view();
        target.drawImage(picture, cx - v / 2, cy - v / 2, v, v, 0, 0, out, out);
      };
      draw();
      let drag = null;
      canvas.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
      canvas.addEventListener("pointermove", (e) => {
        if (!drag) return;
        const k = view() / canvas.getBoundingClientRect().width;
        cx -= (e.clientX - drag.x) * k;
        cy -= (e.clientY - drag.y) * k;
        drag = { x: e.clientX, y: e.clientY };
        draw();
      });
      canvas.addEventListener("pointerup", () => { drag = null; });
      const slider = dialog.querySelector(".crop-zoom");
      slider.addEventListener("input", () => { zoom = Number(slider.value); draw(); });
      canvas.addEventListener("wheel", (e) => {
        e.preventDefault();
        zoom = Math.min(4, Math.max(1, zoom * (e.deltaY < 0 ? 1.1 : 0.9)));
        slider.value = String(zoom);
        draw();
      }, { passive: false });
      let result = null;
      dialog.querySelector(".crop-cancel").addEventListener("click", () => dialog.close());
      dialog.querySelector(".crop-ok").addEventListener("click", () => {
        const out = document.createElement("canvas");
        out.width = size;
        out.height = size;
        draw(out.getContext("2d"), size);
        out.toBlob((blob) => { result = blob; dialog.close(); }, "image/jpeg", 0.9);
      });
      dialog.addEventListener("close", () => { dialog.remove(); URL.revokeObjectURL(url); resolve(result); });
      dialog.showModal();
    };
    picture.src = url;
  });
}

export async function mount(root) {
  const me = store.get().user;
  if (!me) { navigate("/login?next=/mine/profile", { replace: true }); return; }
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("editProfile")}</h1></header><div class="profile-edit">${loadingBlock()}</div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/mine"));
  const box = root.querySelector(".profile-edit");
  let profile;
  try {
    profile = await accounts.profile({ id: me.userId });
  } catch (error) {
    setHTML(box, errorBlock(error));
    return;
  }
  if (!root.isConnected) return;
  const option = (v, label) => html`<option value="${v}"${profile.gender === v ? " selected" : ""}>${label}</option>`;
  setHTML(box, html`<div class="avatar-edit"><span class="avatar-now">${avatar(profile, 88)}</span>
      <label class="pill-btn">${icon("camera")}${t("changeAvatar")}<input class="avatar-file" type="file" accept="${PICTURE_TYPES.join(",")}" hidden></label></div>
    <form class="login-form edit-form">
      <label class="field"><span class="field-label">${t("nickname")}</span><input class="text-input" name="nickname" maxlength="30" required value="${profile.nickname}"></label>
      <label class="field"><span class="field-label">${t("gender")}</span><select class="text-input" name="gender">${option(0, t("secret"))}${option(10, t("male"))}${option(20, t("female"))}</select></label>
      <label class="field"><span class="field-label">${t("birthday")}</span><input class="text-input" type="date" name="birthday" value="${profile.birthday ?? ""}"></label>
      <div class="code-row"><label class="field"><span class="field-label">${t("province")}</span><input class="text-input" name="province" maxlength="30" value="${profile.province ?? ""}"></label>
      <label class="field"><span class="field-label">${t("city")}</span><input class="text-input" name="city" maxlength="30" value="${profile.city ?? ""}"></label></div>
      <label class="field"><span class="field-label">${t("bio")}</span><textarea class="text-input textarea" name="description" maxlength="300" rows="3">${profile.description ?? ""}</textarea></label>
      <p class="form-error" role="alert"></p>
      <button class="pill-btn primary wide submit" type="submit">${t("save")}</button>
    </form>`);
  const error = box.querySelector(".form-error");
  box.querySelector(".avatar-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    error.textContent = "";
    if (!PICTURE_TYPES.includes(file.type)) { error.textContent = t("notPicture", { name: file.name }); return; }
    try {
      const blob = await cropSquare(file);
      if (!blob) return;
      const form = new FormData();
      form.append("file", blob, "avatar.jpg");
      const updated = await accounts.uploadAvatar({ id: me.userId }, form);
      const icon2 = updated?.icon ?? profile.icon;
      profile.icon = icon2 ? `${icon2.split("?")[0]}?v=${Date.now()}` : icon2;
      setHTML(box.querySelector(".avatar-now"), avatar(profile, 88));
      const user = { ...store.get().user, icon: profile.icon };
      store.persist("cm.user", user);
      store.set({ user });
      toast(t("saved"));
    } catch (e) {
      error.textContent = e.message;
    }
  });
  box.querySelector(".edit-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = event.target;
    error.textContent = "";
    try {
      const updated = await accounts.updateProfile({ id: me.userId }, {
        nickname: f.nickname.value.trim(), gender: Number(f.gender.value), birthday: f.birthday.value || null,
        province: f.province.value.trim() || null, city: f.city.value.trim() || null, description: f.description.value.trim() || null,
      });
      const user = { ...store.get().user, nickname: updated.nickname };
      store.persist("cm.user", user);
      store.set({ user });
      toast(t("saved"));
      navigate(`/user/${me.userId}`, { replace: true });
    } catch (e) {
      error.textContent = e.message;
    }
  });
}
