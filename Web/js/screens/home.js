// Discover: the server's home (GET /v1/home) drawn module by module, in the order the administrator and the
// person chose: a renderer per moduleType (a type this app does not know is skipped), the banner carousel of
// the ads, the round entries with 每日推荐 and 私人FM, and the screen that reorders and hides modules.
import { home as homeAPI } from "../api.js";
import * as store from "../store.js";
import { engine } from "../player.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, img, songRow, markPlaying, artistNames, errorBlock, safeLink } from "../ui.js";
import { media } from "../media.js";
import { bindSongList } from "../actions.js";

export function sheetCard(sheet) {
  return html`<a class="card" href="/sheet/${sheet.id}">
    <span class="card-cover">${img(sheet, 160, "", "")}${sheet.clicksCount ? html`<span class="card-count">${icon("play")}${count(sheet.clicksCount)}</span>` : ""}</span>
    <span class="card-title">${sheet.title}</span></a>`;
}

/** A product on the home (商城): its first picture or a placeholder, its title and its price. */
function productCard(product) {
  const picture = product.pictures?.[0];
  const price = product.priceCents != null
    ? new Intl.NumberFormat(undefined, { style: "currency", currency: product.currency || "CNY" }).format(product.priceCents / 100) : "";
  return html`<a class="card" href="/shop/product/${product.id}">
    <span class="card-cover">${picture ? html`<img src="${media(picture, 320)}" alt="" loading="lazy">` : html`<span class="picture-placeholder">${icon("image")}</span>`}</span>
    <span class="card-title">${product.title}</span><span class="card-sub">${price}</span></a>`;
}

/** An episode on the home: its podcast's picture, its title and its podcast; opens the episode's page. */
function episodeCard(episode) {
  const cover = { icon: episode.imageUrl ? `v1/podcasts/${episode.podcastId}/cover` : null };
  return html`<a class="mini-card" href="/episode/${episode.id}">${img(cover, 110, "", "")}
    <span class="card-title">${episode.title}</span><span class="card-sub">${episode.podcastTitle}</span></a>`;
}

export function albumCard(album) {
  return html`<a class="card" href="/album/${album.id}">
    <span class="card-cover album">${img(album, 160, "", "")}</span>
    <span class="card-title">${album.title}</span>
    <span class="card-sub">${album.artist?.name ?? ""}</span></a>`;
}

function section(title, more, body, cls = "") {
  return html`<section class="section ${cls}"><div class="section-head"><h2>${title}</h2>
    ${more ? html`<a class="more-link" href="${more}">${t("more")}${icon("right")}</a>` : ""}</div>${body}</section>`;
}

/** Where a banner goes: an app link (`cloudmusic://sheet/5`) opens that page, a web address a new tab. */
function bannerTarget(ad) {
  const app = /^cloudmusic:\/\/(sheet|album|artist|song|video|user|topic)\/(\d+)$/.exec(ad.link ?? "");
  if (app) return { href: app[1] === "song" ? `/play?song=${app[2]}` : `/${app[1]}/${app[2]}`, external: false };
  const web = safeLink(ad.link);
  return web ? { href: web, external: true } : null;
}

function banners(ads, title) {
  const slides = ads.map((ad, i) => {
    const target = bannerTarget(ad);
    const inner = html`<img class="banner-img" src="${media(ad.icon)}" alt="" width="${ad.width || 750}" height="${ad.height || 300}"><span class="banner-tag">${ad.title}</span>`;
    const label = `${i + 1} / ${ads.length}: ${ad.title}`;
    return target
      ? html`<a class="banner" href="${target.href}" ${target.external ? html`target="_blank" rel="noopener" data-external` : ""} role="group" aria-roledescription="slide" aria-label="${label}">${inner}</a>`
      : html`<div class="banner" role="group" aria-roledescription="slide" aria-label="${label}">${inner}</div>`;
  });
  const dots = ads.map((_, i) => html`<button class="dot${i ? "" : " on"}" type="button" data-i="${i}" aria-label="${i + 1}"></button>`);
  return html`<div class="carousel" aria-roledescription="carousel" aria-label="${title}">
    <div class="banner-track" tabindex="0" aria-label="${title}">${slides}</div><div class="dots">${dots}</div></div>`;
}

/** Auto-advances every 4 s; swiping is the browser's own scrolling; touch, hover and focus pause it. */
function carousel(root) {
  const track = root.querySelector(".banner-track");
  if (!track) return () => {};
  const dots = [...root.querySelectorAll(".dot")];
  let index = 0;
  let paused = false;
  const go = (i) => {
    index = (i + dots.length) % dots.length;
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: track.children[index].offsetLeft - track.offsetLeft, behavior: smooth ? "smooth" : "auto" });
  };
  const onScroll = () => {
    const width = track.children[0]?.offsetWidth || 1;
    index = Math.round(track.scrollLeft / width);
    dots.forEach((dot, i) => dot.classList.toggle("on", i === index));
  };
  track.addEventListener("scroll", onScroll, { passive: true });
  for (const type of ["pointerenter", "touchstart", "focusin"]) root.addEventListener(type, () => { paused = true; }, { passive: true });
  for (const type of ["pointerleave", "touchend", "focusout"]) root.addEventListener(type, () => { paused = false; }, { passive: true });
  root.querySelector(".dots").addEventListener("click", (event) => {
    const dot = event.target.closest(".dot");
    if (dot) go(Number(dot.dataset.i));
  });
  const timer = setInterval(() => {
    if (!paused && document.visibilityState === "visible" && dots.length > 1) go(index + 1);
  }, 4000);
  return () => clearInterval(timer);
}

const TITLES = {
  dailySongs: "dailyPick", personalRadio: "personalRadio", hotSheets: "hotSheets", recommendedSheets: "sheetsForYou",
  recommendedSongs: "guessYouLike", newAlbums: "newAlbums", categories: "genres", recentlyPlayed: "recentPlays", videos: "videos", products: "shop",
  continueListening: "homeContinueListening", newEpisodes: "homeNewEpisodes",
};
/** A module's title: ours in the person's language for the types we know (the server's is English unless an
 * administrator set one; then theirs). */
const titleOf = (module) => (module.title && !DEFAULT_TITLES.has(module.title) ? module.title : t(TITLES[module.moduleType] ?? "discover"));
const DEFAULT_TITLES = new Set(["Banner", "Songs of the day", "Personal radio", "Hot sheets", "Sheets for you", "Recommended songs", "New albums", "Categories", "Recently played", "Videos", "Shop", "Continue listening", "New episodes"]);
const moreLink = (module, fallback) => ({ "v1/sheets?order=hot": "/browse/sheets", "v1/albums?sort=recent": "/browse/albums", "v1/categories": "/browse/genres", "v1/plays?order=recent": "/mine/recent", "v1/videos?order=hot": "/videos?order=hot", "v1/shop/products": "/shop", "v1/episodes/continue": "/podcasts", "v1/episodes/new": "/podcasts" })[module.more] ?? fallback;

/** One renderer per module type: markup, and what to wire once it is in the page. */
const renderers = {
  banner: (m) => ({ markup: banners(m.items, titleOf(m)), wire: (el) => carousel(el) }),
  dailySongs: (m) => songSection(m, null),
  personalRadio: () => null, // an entry point above, not a row
  recommendedSongs: (m) => songSection(m, null),
  hotSheets: (m) => ({ markup: section(titleOf(m), moreLink(m, "/browse/sheets"), html`<div class="card-grid">${m.items.slice(0, 6).map(sheetCard)}</div>`) }),
  recommendedSheets: (m) => ({ markup: section(titleOf(m), null, html`<div class="card-grid">${m.items.slice(0, 6).map(sheetCard)}</div>`) }),
  newAlbums: (m) => ({ markup: section(titleOf(m), moreLink(m, "/browse/albums"), html`<div class="card-grid albums">${m.items.slice(0, 6).map(albumCard)}</div>`) }),
  categories: (m) => ({ markup: section(titleOf(m), moreLink(m, "/browse/genres"), html`<div class="genre-grid home-genres">${m.items.map((c, i) => html`<a class="genre-tile hue-${i % 8}" href="/genre/${c.id}?name=${encodeURIComponent(c.name)}">
      <span class="genre-name">${c.name}</span><span class="genre-count">${t("tracks", { n: c.songsCount })}</span></a>`)}</div>`) }),
  recentlyPlayed: (m) => ({
    markup: section(titleOf(m), moreLink(m, "/mine/recent"), html`<div class="h-scroll">${m.items.map((song, i) => html`<button class="mini-card" type="button" data-played="${i}">
      ${img(song, 110, "", "")}<span class="card-title">${song.title}</span><span class="card-sub">${artistNames(song)}</span></button>`)}</div>`),
    wire: (el) => el.querySelector(".h-scroll").addEventListener("click", (event) => {
      const card = event.target.closest("[data-played]");
      if (card) engine.playList(m.items, Number(card.dataset.played));
    }),
  }),
  products: (m) => ({ markup: section(titleOf(m), moreLink(m, "/shop"), html`<div class="card-grid products">${m.items.slice(0, 6).map(productCard)}</div>`) }),
  continueListening: (m) => ({ markup: section(titleOf(m), moreLink(m, "/podcasts"), html`<div class="h-scroll">${m.items.map(episodeCard)}</div>`) }),
  newEpisodes: (m) => ({ markup: section(titleOf(m), moreLink(m, "/podcasts"), html`<div class="h-scroll">${m.items.map(episodeCard)}</div>`) }),
  videos: (m) => ({
    markup: section(titleOf(m), moreLink(m, "/videos"), html`<div class="card-grid videos"></div>`),
    // The video card (and its words) come with the videos screen's module, after the first render.
    wire: (el) => setTimeout(() => import("./videos.js").then(({ videoCard }) => setHTML(el.querySelector(".videos"), m.items.slice(0, 4).map(videoCard)))),
  }),
};

function songSection(m) {
  return {
    markup: section(titleOf(m), null, html`<ol class="song-list">${m.items.slice(0, 6).map((s, i) => songRow(s, i, { showCover: true }))}</ol>`),
    wire: (el) => bindSongList(el.querySelector(".song-list"), () => m.items),
  };
}

const entries = (modules) => {
  const has = (type) => modules.some((m) => m.moduleType === type);
  const day = new Date().getDate();
  return [
    { action: "daily", label: t("dailyPick"), icon: "calendar", badge: String(day), show: true },
    { action: "radio", label: t("personalRadio"), icon: "radio", show: true, on: has("personalRadio") },
    { href: "/browse/sheets", label: t("sheets"), icon: "sheet", show: true },
    { href: "/browse/songs", label: t("hotSongs"), icon: "chart", show: true },
    { href: "/videos", label: t("videos"), icon: "video", show: true },
    { href: "/podcasts", label: t("podcasts"), icon: "mic", show: true },
    { href: "/news", label: t("news"), icon: "news", show: true },
  ];
};

export async function mount(root) {
  const user = store.get().user;
  setHTML(root, html`<h1 class="visually-hidden">${t("discover")}</h1>
    <header class="top-bar home-bar">
      <a class="search-pill" href="/search">${icon("search")}<span>${t("searchPlaceholder")}</span></a>
    </header>
    <div class="home-body"><div class="home-carousel"><div class="banner-skeleton"></div></div>
    <nav class="entries" aria-label="${t("discover")}"></nav>
    <div class="home-sections"></div></div>`);
  let modules;
  try {
    modules = await homeAPI.home();
  } catch (error) {
    if (!root.isConnected) return;
    root.querySelector(".home-carousel").replaceChildren();
    setHTML(root.querySelector(".home-sections"), errorBlock(error));
    root.querySelector("[data-action=retry]").addEventListener("click", () => mount(root));
    return;
  }
  if (!root.isConnected) return;
  setHTML(root.querySelector(".entries"), entries(modules).map((e) => e.href
    ? html`<a class="entry" href="${e.href}"><span class="entry-icon">${icon(e.icon)}</span><span>${e.label}</span></a>`
    : html`<button class="entry" type="button" data-entry="${e.action}"><span class="entry-icon">${icon(e.icon)}${e.badge ? html`<span class="entry-day">${e.badge}</span>` : ""}</span><span>${e.label}</span></button>`));
  root.querySelector(".entries").addEventListener("click", (event) => {
    const entry = event.target.closest("[data-entry]");
    if (entry) import("./home-actions.js").then((actions) => actions.startEntry(entry.dataset.entry, modules));
  });
  const carouselBox = root.querySelector(".home-carousel");
  const sections = root.querySelector(".home-sections");
  const stops = [];
  carouselBox.replaceChildren();
  for (const module of modules) {
    const render = renderers[module.moduleType];
    const drawn = render?.(module);
    if (!drawn) continue;
    const holder = document.createElement("div");
    holder.className = `home-module module-${module.moduleType}`;
    holder.dataset.module = module.moduleType;
    setHTML(holder, drawn.markup);
    (module.moduleType === "banner" && !carouselBox.childElementCount ? carouselBox : sections).append(holder);
    const stop = drawn.wire?.(holder);
    if (typeof stop === "function") stops.push(stop);
  }
  if (user) {
    const footer = document.createElement("div");
    footer.className = "home-footer";
    setHTML(footer, html`<button class="pill-btn arrange-home" type="button">${icon("tune")}${t("arrangeHome")}</button>`);
    footer.querySelector("button").addEventListener("click", () =>
      import("./home-actions.js").then((actions) => actions.reorder(root, titleOf, () => mount(root))));
    sections.append(footer);
  }
  const mark = () => markPlaying(sections, engine.song?.id);
  mark();
  engine.addEventListener("song", mark);
  performance.mark("cm-home-rendered");
  return () => {
    for (const stop of stops) stop();
    engine.removeEventListener("song", mark);
  };
}
