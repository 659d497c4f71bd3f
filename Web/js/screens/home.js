// Discover: the banner carousel, the round entries, then hot sheets, new songs, new albums and (signed in)
// recently played. Until the server has GET /v1/home, these come from the lists that exist.
import { catalog, sheets } from "../api.js";
import * as store from "../store.js";
import { engine } from "../player.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { esc, img, songRow, markPlaying, artistNames, errorBlock } from "../ui.js";
import { cover } from "../media.js";
import { bindSongList } from "../actions.js";

export function sheetCard(sheet) {
  return `<a class="card" href="/sheet/${esc(sheet.id)}">
    <span class="card-cover">${img(sheet, 160, "", "")}${sheet.clicksCount ? `<span class="card-count">${icon("play")}${esc(count(sheet.clicksCount))}</span>` : ""}</span>
    <span class="card-title">${esc(sheet.title)}</span></a>`;
}

export function albumCard(album) {
  return `<a class="card" href="/album/${esc(album.id)}">
    <span class="card-cover album">${img(album, 160, "", "")}</span>
    <span class="card-title">${esc(album.title)}</span>
    <span class="card-sub">${esc(album.artist?.name ?? "")}</span></a>`;
}

function section(title, more, body, cls = "") {
  return `<section class="section ${cls}"><div class="section-head"><h2>${esc(title)}</h2>
    ${more ? `<a class="more-link" href="${more}">${esc(t("more"))}${icon("right")}</a>` : ""}</div>${body}</section>`;
}

function banners(albums) {
  if (!albums.length) return "";
  const slides = albums.map((album, i) => `<a class="banner" href="/album/${esc(album.id)}" role="group" aria-roledescription="slide" aria-label="${i + 1} / ${albums.length}: ${esc(album.title)}">
      <img class="banner-bg" src="${esc(cover(album, 256))}" alt="" aria-hidden="true" loading="${i ? "lazy" : "eager"}">
      <span class="banner-body">${img(album, 120, "banner-cover", "")}
        <span class="banner-text"><span class="banner-title">${esc(album.title)}</span>
        <span class="banner-sub">${esc(album.artist?.name ?? "")}${album.year ? ` · ${album.year}` : ""}</span></span></span>
      <span class="banner-tag">${esc(t("newAlbums"))}</span></a>`).join("");
  const dots = albums.map((_, i) => `<button class="dot${i ? "" : " on"}" type="button" data-i="${i}" aria-label="${i + 1}"></button>`).join("");
  return `<div class="carousel" aria-roledescription="carousel" aria-label="${esc(t("newAlbums"))}">
    <div class="banner-track">${slides}</div><div class="dots">${dots}</div></div>`;
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

const entries = () => [
  { href: "/browse/songs", label: t("hotSongs"), icon: "chart" },
  { href: "/browse/sheets", label: t("sheets"), icon: "sheet" },
  { href: "/browse/artists", label: t("artists"), icon: "mic" },
  { href: "/browse/albums", label: t("albums"), icon: "disc" },
  { href: "/browse/genres", label: t("genres"), icon: "category" },
  { href: "/videos", label: t("videos"), icon: "video" },
];

export async function mount(root) {
  const user = store.get().user;
  root.innerHTML = `<header class="top-bar home-bar">
      <a class="search-pill" href="/search">${icon("search")}<span>${esc(t("searchPlaceholder"))}</span></a>
    </header>
    <div class="home-body"><div class="home-carousel"><div class="banner-skeleton"></div></div>
    <nav class="entries" aria-label="${esc(t("discover"))}">${entries().map((e) => `<a class="entry" href="${e.href}"><span class="entry-icon">${icon(e.icon)}</span><span>${esc(e.label)}</span></a>`).join("")}</nav>
    <div class="home-sections"></div></div>`;
  const requests = [
    catalog.albums({ sort: "recent", size: 12 }),
    sheets.list({ order: "hot", size: 6 }),
    catalog.songs({ sort: "recent", size: 9 }),
    user ? sheets.history({ size: 10 }) : Promise.resolve(null),
  ].map((p) => p.then((value) => ({ value }), (error) => ({ error })));
  const [albums, hot, songs, plays] = await Promise.all(requests);
  if (!root.isConnected) return;
  if (albums.error && songs.error) {
    root.querySelector(".home-sections").innerHTML = errorBlock(albums.error);
    root.querySelector("[data-action=retry]").addEventListener("click", () => mount(root));
    return;
  }
  const albumList = albums.value?.data ?? [];
  const newSongs = songs.value?.data ?? [];
  const played = (plays?.value?.data ?? []).map((entry) => entry.song);
  root.querySelector(".home-carousel").innerHTML = banners(albumList.slice(0, 5));
  let html = "";
  const hotSheets = hot.value?.data ?? [];
  if (hotSheets.length) html += section(t("hotSheets"), "/browse/sheets", `<div class="card-grid">${hotSheets.map(sheetCard).join("")}</div>`);
  if (newSongs.length) html += section(t("newSongs"), "/browse/songs?sort=recent", `<ol class="song-list new-songs">${newSongs.map((s, i) => songRow(s, i, { showCover: true })).join("")}</ol>`);
  if (albumList.length) html += section(t("newAlbums"), "/browse/albums", `<div class="card-grid albums">${albumList.slice(0, 6).map(albumCard).join("")}</div>`);
  if (played.length) {
    html += section(t("recentPlays"), "/mine/recent", `<div class="h-scroll">${played.map((song, i) => `<button class="mini-card" type="button" data-played="${i}">
      ${img(song, 110, "", "")}<span class="card-title">${esc(song.title)}</span><span class="card-sub">${esc(artistNames(song))}</span></button>`).join("")}</div>`);
  }
  const sections = root.querySelector(".home-sections");
  sections.innerHTML = html;
  const list = sections.querySelector(".new-songs");
  if (list) bindSongList(list, () => newSongs);
  sections.querySelector(".h-scroll")?.addEventListener("click", (event) => {
    const card = event.target.closest("[data-played]");
    if (card) engine.playList(played, Number(card.dataset.played));
  });
  const mark = () => markPlaying(sections, engine.song?.id);
  mark();
  engine.addEventListener("song", mark);
  const stopCarousel = carousel(root.querySelector(".home-carousel"));
  performance.mark("cm-home-rendered");
  return () => {
    stopCarousel();
    engine.removeEventListener("song", mark);
  };
}
