// The app's start: the chrome (side bar, tab bar, mini player), the router, the service worker, the queue
// sync, the live event stream and the keyboard. Screens live in ./screens and are loaded by the router.
import * as store from "./store.js";
import { setToken, events as httpEvents } from "./http.js";
import { t, lang } from "./i18n.js";
import { start, navigate, onRoute, route, refresh } from "./router.js";
import { engine } from "./player.js";
// Episodes left in the queue play at their speed and save their place from any screen, after a reload too.
import "./episode-player.js";
import { mountMiniPlayer } from "./mini-player.js";
import { loadLikes } from "./actions.js";
import { icon } from "./icons.js";
import { setHTML, html, toast } from "./ui.js";
import { socialStyles } from "./router.js";

performance.mark("cm-main");
const dark = matchMedia("(prefers-color-scheme: dark)");
const TOP_LEVEL = new Set(["home", "search", "mine", "settings", "moments", "inbox", "videos", "news"]);

function applyTheme() {
  const theme = store.get().theme;
  const resolved = theme === "system" ? (dark.matches ? "dark" : "light") : theme;
  document.documentElement.dataset.theme = resolved;
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", resolved === "dark" ? "#16161a" : "#ffffff");
}

function applyLang() {
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  document.title = t("appName");
}

const nav = [
  { path: "/", label: "discover", icon: "disc", match: ["home", "browse", "genre"] },
  { path: "/search", label: "search", icon: "search", match: ["search"] },
  { path: "/moments", label: "moments", icon: "people", match: ["moments", "moment", "moment-new", "topic"] },
  { path: "/videos", label: "videos", icon: "video", match: ["videos", "video"], desktop: true },
  { path: "/news", label: "news", icon: "news", match: ["news"], desktop: true },
  { path: "/inbox", label: "inbox", icon: "bell", match: ["inbox"], badge: "notifications", tabBadge: "all" },
  { path: "/messages", label: "messages", icon: "chat", match: ["messages"], badge: "messages", desktop: true },
  { path: "/mine", label: "mine", icon: "note", match: ["mine", "recent", "downloads", "profile-edit"] },
  { path: "/settings", label: "settings", icon: "tune", match: ["settings"], desktop: true },
];

let unmountMini = null;
/** The unread badges' module, loaded after the first screen. */
let badges = null;

function renderChrome() {
  const user = store.get().user;
  document.getElementById("skip").textContent = t("skip");
  setHTML(document.getElementById("sidebar"), html`
    <a class="brand" href="/" aria-label="${t("appName")}"><img src="${new URL("../icons/icon.svg", import.meta.url).href}" alt="" width="32" height="32"><span>${t("appName")}</span></a>
    <nav class="side-nav" aria-label="${t("appName")}">
      ${nav.map((item) => html`<a class="side-link" href="${item.path}" data-match="${item.path === "/mine" ? "mine" : item.match.join(" ")}">${icon(item.icon)}<span>${t(item.label)}</span>${item.badge ? html`<span class="badge badge-slot" data-badge="${item.badge}" hidden></span>` : ""}</a>`)}
      <div class="side-group">${t("mine")}</div>
      <a class="side-link" href="/mine/recent" data-match="recent">${icon("history")}<span>${t("recentPlays")}</span></a>
      <a class="side-link" href="/mine/downloads" data-match="downloads">${icon("download")}<span>${t("downloads")}</span></a>
      ${user && store.get().likesSheetId ? html`<a class="side-link" href="/sheet/${store.get().likesSheetId}" data-match="">${icon("heart")}<span>${t("iLike")}</span></a>` : ""}
    </nav>
    <a class="side-user" href="${user ? "/mine" : "/login"}">${icon("user")}<span>${user ? user.nickname || t("mine") : t("signIn")}</span></a>
    <p class="side-keys">${t("shortcuts")}</p>`);
  setHTML(document.getElementById("tabbar"), nav.filter((item) => !item.desktop).map((item) =>
    html`<a class="tab" href="${item.path}" data-match="${item.match.join(" ")}">${icon(item.icon)}<span>${t(item.label)}</span>${item.badge ? html`<span class="badge badge-slot" data-badge="${item.tabBadge || item.badge}" hidden></span>` : ""}</a>`));
  badges?.drawBadges();
  document.getElementById("tabbar").setAttribute("aria-label", t("appName"));
  unmountMini?.();
  unmountMini = mountMiniPlayer(document.getElementById("mini"));
  markNav();
}

function markNav() {
  const screen = route()?.screen;
  for (const link of document.querySelectorAll(".tab, .side-link")) {
    const on = link.dataset.match.split(" ").includes(screen);
    link.classList.toggle("active", on);
    if (on) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.screen = screen || "";
  document.body.classList.toggle("show-tabbar", TOP_LEVEL.has(screen));
}

function keyboard(event) {
  const target = event.target;
  const typing = target.closest?.("input, textarea, select, [contenteditable]");
  if (event.key === "Escape" && route()?.screen === "play" && !document.querySelector("dialog[open]")) {
    history.back();
    return;
  }
  if (typing || document.querySelector("dialog[open]") || event.altKey) return;
  const mod = event.ctrlKey || event.metaKey;
  switch (event.key) {
    case " ":
      if (target.closest("button, a, [role=slider]")) return;
      event.preventDefault();
      engine.toggle();
      break;
    case "ArrowLeft":
    case "ArrowRight": {
      if (!mod && target.closest("input, [role=slider]")) return;
      event.preventDefault();
      const forward = event.key === "ArrowRight";
      if (mod) forward ? engine.next() : engine.previous();
      else engine.seek(engine.time() + (forward ? 5 : -5));
      break;
    }
    case "ArrowUp":
    case "ArrowDown":
      if (!mod && route()?.screen !== "play") return;
      event.preventDefault();
      engine.setVolume(engine.volume + (event.key === "ArrowUp" ? 0.1 : -0.1));
      toast(`${t("volume")} ${Math.round(engine.volume * 100)}%`);
      break;
    case "/":
      if (mod) return;
      event.preventDefault();
      if (route()?.screen === "search") document.querySelector(".search-input")?.focus();
      else navigate("/search");
      break;
  }
}

function boot() {
  applyTheme();
  applyLang();
  const user = store.get().user;
  if (user) setToken(user.session);
  renderChrome();
  onRoute(markNav);
  dark.addEventListener("change", applyTheme);
  store.watch(["theme"], applyTheme);
  store.watch(["lang"], () => {
    applyLang();
    renderChrome();
    refresh();
  });
  store.watch(["user"], (state) => {
    renderChrome();
    if (state.user) {
      setToken(state.user.session);
      loadLikes();
      import("./queue-sync.js").then((module) => module.sync());
      import("./first-run.js").then((module) => module.acceptAfterSignIn());
    }
  });
  store.watch(["likesSheetId"], renderChrome);
  httpEvents.addEventListener("unauthorized", async () => {
    (await import("./session.js")).signOutHere();
    toast(t("signInFirst"));
  });
  const online = () => {
    store.set({ online: navigator.onLine });
    document.body.classList.toggle("offline", !navigator.onLine);
    const bar = document.getElementById("offline-bar");
    bar.hidden = navigator.onLine;
    bar.textContent = t("offline");
  };
  addEventListener("online", online);
  addEventListener("offline", online);
  online();
  document.addEventListener("keydown", keyboard);
  // A cover the server lists but cannot find: the placeholder instead of a broken picture.
  const placeholder = new URL("../icons/cover.svg", import.meta.url).href;
  document.addEventListener("error", (event) => {
    const el = event.target;
    if (el instanceof HTMLImageElement && el.src !== placeholder) el.src = placeholder;
  }, true);
  engine.addEventListener("failed", (event) => toast(t("cannotPlay", { title: event.detail?.title ?? "" })));
  start(document.getElementById("view")).then(() => {
    performance.mark("cm-first-screen");
    // After the first screen: the social side's styles, the first run's layers and the unread badges.
    socialStyles();
    import("./first-run.js").then((module) => module.firstRun());
    import("./badge.js").then((module) => {
      badges = module;
      module.startBadges();
      module.drawBadges();
    });
    import("./queue-sync.js").then((module) => module.startSync());
    // The live event stream: messages, notifications, the queue and likes from other devices, as they happen.
    import("./live.js").then((module) => {
      globalThis.cloudmusic.live = module.live;
      module.startLive();
    });
    loadLikes();
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
    }
  });
}

// For tests and the curious: the running app's parts.
globalThis.cloudmusic = { engine, store, navigate, route };
boot();
