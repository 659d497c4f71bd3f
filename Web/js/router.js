// The router: addresses of the History API mapped to screen modules, loaded when first needed.
// A screen module exports `mount(root, { params, query })`, which may return a function that unmounts it.

const routes = [
  ["/", "home"],
  ["/search", "search"],
  ["/sheet/:id", "sheet"],
  ["/album/:id", "album"],
  ["/artist/:id", "artist"],
  ["/genre/:id", "genre"],
  ["/browse/:kind", "browse"],
  ["/play", "play"],
  ["/login", "login"],
  ["/mine", "mine"],
  ["/mine/recent", "recent"],
  ["/mine/downloads", "downloads"],
  ["/settings", "settings"],
  ["/settings/blocks", "people"],
  ["/settings/app-passwords", "app-passwords"],
  ["/comments/:kind/:id", "comments"],
  ["/moments", "moments"],
  ["/moments/new", "moment-new"],
  ["/moment/:id", "moment"],
  ["/topic/:id", "topic"],
  ["/user/:id", "user"],
  ["/user/:id/:list", "people"],
  ["/mine/profile", "profile-edit"],
  ["/inbox", "inbox"],
  ["/messages", "messages"],
  ["/messages/user/:userId", "messages"],
  ["/messages/:id", "messages"],
  ["/videos", "videos"],
  ["/video/:id", "video"],
  ["/shop", "shop"],
  ["/shop/:kind", "shop"],
  ["/shop/:kind/:id", "shop"],
  ["/podcasts", "podcasts"],
  ["/podcast/:id", "podcasts"],
  ["/episode/:id", "podcasts"],
  ["/news", "news"],
  ["/news/saved", "news"],
  ["/news/article/:id", "news"],
].map(([pattern, screen]) => {
  const names = [];
  const source = pattern.replace(/:(\w+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  return { pattern, screen, names, regex: new RegExp(`^${source}/?$`) };
});

/** Screens styled by css/social.css, which is loaded when one of them is first shown (or after the first
 * screen), so the first render of home does not carry it. */
const SOCIAL = new Set(["search", "comments", "moments", "moment-new", "moment", "topic", "user", "people", "profile-edit", "inbox", "videos", "video", "messages", "news"]);
/** Screens that also need css/chat.css (messages), loaded when one is first shown. */
const CHAT = new Set(["messages"]);
const sheets = new Map();
function stylesheet(name) {
  if (!sheets.has(name)) {
    sheets.set(name, new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL(`../css/${name}`, import.meta.url).href;
      link.onload = () => resolve();
      link.onerror = () => resolve();
      document.head.append(link);
    }));
  }
  return sheets.get(name);
}
export function socialStyles() { return stylesheet("social.css"); }

const listeners = new Set();
let current = null;
let unmount = null;
let generation = 0;
let root = null;
const scrolls = new Map();

/** Where we are: { path, screen, params, query }. */
export function route() { return current; }

/** Calls `fn(route)` after each screen change. */
export function onRoute(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function match(path) {
  for (const entry of routes) {
    const found = entry.regex.exec(path);
    if (found) {
      const params = {};
      entry.names.forEach((name, i) => { params[name] = decodeURIComponent(found[i + 1]); });
      return { screen: entry.screen, params };
    }
  }
  return { screen: "home", params: {} };
}

/** Goes to `to` (a path with an optional query); `replace` keeps the history entry. */
export function navigate(to, { replace = false, state } = {}) {
  const url = new URL(to, location.href);
  if (url.origin !== location.origin) {
    location.href = url.href;
    return;
  }
  saveScroll();
  const key = Math.random().toString(36).slice(2);
  const entry = { key, ...(state || {}) };
  if (replace) history.replaceState(entry, "", url.pathname + url.search);
  else history.pushState(entry, "", url.pathname + url.search);
  render();
}

/** Back when there is somewhere to go back to in this app, else to `fallback`. */
export function back(fallback = "/") {
  if (history.state?.key && history.length > 1 && history.state.depth !== 0) history.back();
  else navigate(fallback, { replace: true });
}

function saveScroll() {
  if (history.state?.key) scrolls.set(history.state.key, scrollY);
}

async function render() {
  const mine = ++generation;
  const path = location.pathname;
  const query = new URLSearchParams(location.search);
  const { screen, params } = match(path);
  const module = await import(`./screens/${screen}.js`);
  if (SOCIAL.has(screen)) await socialStyles();
  if (CHAT.has(screen)) await stylesheet("chat.css");
  if (mine !== generation) return;
  if (typeof unmount === "function") {
    try { unmount(); } catch (error) { console.error(error); }
  }
  unmount = null;
  const previous = current;
  current = { path, screen, params, query };
  const view = document.createElement("div");
  view.className = `view view-${screen}`;
  root.replaceChildren(view);
  unmount = (await module.mount(view, { params, query, previous })) || null;
  if (mine !== generation) return;
  const saved = history.state?.key ? scrolls.get(history.state.key) : undefined;
  window.scrollTo(0, saved ?? 0);
  for (const fn of listeners) fn(current);
}

/** Starts routing into `element`: links inside the app open screens instead of loading pages. */
export function start(element) {
  root = element;
  if (!history.state?.key) history.replaceState({ key: "first", depth: 0 }, "");
  addEventListener("popstate", () => render());
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (link.target || link.hasAttribute("download") || link.dataset.external !== undefined) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || /^\/(v1|rest|health|metrics)\b/.test(url.pathname)) return;
    event.preventDefault();
    if (url.pathname + url.search !== location.pathname + location.search) navigate(url.pathname + url.search);
  });
  return render();
}

/** Renders the current screen again (after a language change). */
export function refresh() { return render(); }
