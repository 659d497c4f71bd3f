// Sign in (password or code) and sign up. Without an SMTP relay (and always for SMS) the server leaves codes
// in the administrator's outbox, which the hint says.
import { accounts } from "../api.js";
import { navigate, back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast } from "../ui.js";
import { signIn } from "../session.js";

const modes = ["password", "code", "signup"];

function identity(account) {
  const value = account.trim();
  return value.includes("@") ? { email: value } : { phone: value.replace(/[\s-]/g, "") };
}

export async function mount(root, { query }) {
  const mode = modes.includes(query.get("mode")) ? query.get("mode") : "password";
  const next = query.get("next") || "/mine";
  const outbox = new URL("/v1/admin/outbox", location.href).href;
  const field = (name, label, type, extra = "") => html`<label class="field"><span class="field-label">${label}</span>
      <input class="text-input" name="${name}" type="${type}" ${extra}></label>`;
  const codeField = () => html`<div class="code-row">${field("code", t("code"), "text", html`inputmode="numeric" autocomplete="one-time-code" maxlength="6" ${mode === "code" ? "required" : ""} placeholder="${mode === "signup" ? t("signUpCodeHint") : ""}"`)}
      <button class="pill-btn send-code" type="button">${t("sendCode")}</button></div>
      <p class="hint outbox-hint" hidden>${t("outboxHint", { url: "" })}<a href="${outbox}" target="_blank" rel="noopener" data-external>${outbox}</a></p>`;
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${mode === "signup" ? t("signUp") : t("signIn")}</h1></header>
    <div class="login">
      <div class="login-logo"><img src="${new URL("../../icons/icon.svg", import.meta.url).href}" alt="" width="72" height="72"><span>${t("appName")}</span></div>
      <div class="tabs" role="tablist">
        <a class="tab-link${mode === "password" ? " active" : ""}" role="tab" aria-selected="${mode === "password"}" href="/login?mode=password&next=${encodeURIComponent(next)}">${t("passwordSignIn")}</a>
        <a class="tab-link${mode === "code" ? " active" : ""}" role="tab" aria-selected="${mode === "code"}" href="/login?mode=code&next=${encodeURIComponent(next)}">${t("codeSignIn")}</a>
        <a class="tab-link${mode === "signup" ? " active" : ""}" role="tab" aria-selected="${mode === "signup"}" href="/login?mode=signup&next=${encodeURIComponent(next)}">${t("signUp")}</a>
      </div>
      <form class="login-form" novalidate>
        ${field("account", t("account"), "text", html`autocomplete="username" required`)}
        ${mode === "signup" ? field("nickname", t("nickname"), "text", html`autocomplete="nickname" maxlength="32" required`) : ""}
        ${mode !== "code" ? field("password", t("password"), "password", html`autocomplete="${mode === "signup" ? "new-password" : "current-password"}" minlength="8" maxlength="128" required placeholder="${mode === "signup" ? t("passwordRule") : ""}"`) : ""}
        ${mode !== "password" ? codeField() : ""}
        <p class="form-error" role="alert"></p>
        <button class="pill-btn primary wide submit" type="submit">${mode === "signup" ? t("signUp") : t("signIn")}</button>
      </form>
    </div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/"));
  const form = root.querySelector(".login-form");
  const error = root.querySelector(".form-error");
  let countdown = 0;

  form.querySelector(".send-code")?.addEventListener("click", async (event) => {
    const button = event.currentTarget;
    const account = form.account.value;
    if (!account.trim()) {
      error.textContent = t("account");
      form.account.focus();
      return;
    }
    button.disabled = true;
    try {
      const sent = await accounts.sendCode({}, { ...identity(account), purpose: mode === "signup" ? "register" : "login" });
      toast(t("codeSent"));
      root.querySelector(".outbox-hint").hidden = false;
      let left = sent?.resendAfter ?? 60;
      clearInterval(countdown);
      button.textContent = t("resend", { s: left });
      countdown = setInterval(() => {
        left -= 1;
        if (left <= 0 || !button.isConnected) {
          clearInterval(countdown);
          button.disabled = false;
          button.textContent = t("sendCode");
        } else {
          button.textContent = t("resend", { s: left });
        }
      }, 1000);
    } catch (failure) {
      button.disabled = false;
      error.textContent = failure.message;
    }
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const who = identity(form.account.value);
    const submit = form.querySelector(".submit");
    if (!form.account.value.trim()) {
      error.textContent = t("account");
      return;
    }
    submit.disabled = true;
    try {
      let result;
      if (mode === "signup") {
        const code = form.code.value.trim() || undefined;
        await accounts.register({}, { ...who, nickname: form.nickname.value.trim(), password: form.password.value, code });
        result = await accounts.login({}, { ...who, password: form.password.value, device: "Web" });
      } else if (mode === "code") {
        result = await accounts.login({}, { ...who, code: form.code.value.trim(), device: "Web" });
      } else {
        result = await accounts.login({}, { ...who, password: form.password.value, device: "Web" });
      }
      const user = await signIn(result);
      toast(t("welcome", { name: user.nickname || "" }));
      navigate(next.startsWith("/") && !next.startsWith("//") ? next : "/mine", { replace: true });
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
    }
  });
  return () => clearInterval(countdown);
}
