// Search: hot searches (热搜) and one's history before anything is typed, suggestions while typing (after a
// 150 ms pause; an answer to an older text is dropped), and results in tabs: 综合 (everything), songs, sheets,
// albums, artists, people and videos. The history is the server's when signed in (so it follows the person),
// else this device's. A song played from the results goes after the current one, as the seed app does.
import { catalog, sheets, follows, videos as videoAPI, searchHistory } from "../api.js";
import * as store from "../store.js";
import { load, persist } from "../store.js";
import { engine } from "../player.js";
import { navigate } from "../router.js";
import { t, count, extend } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, img, songRow, markPlaying, emptyBlock, loadingBlock, errorBlock } from "../ui.js";
import { bindSongList } from "../actions.js";
import { sheetCard, albumCard } from "./home.js";
import { videoCard } from "./videos.js";
import { avatar } from "../social.js";

extend({
  zh: {
    hotSearches: "热搜榜", deleteSearch: "删除“{q}”", tab_all: "综合", tab_songs: "单曲", tab_sheets: "歌单", tab_albums: "专辑",
    tab_artists: "歌手", tab_users: "用户", tab_videos: "视频", followersCount: "粉丝 {n}",
  },
  en: {
    hotSearches: "Trending searches", deleteSearch: "Delete “{q}”", tab_all: "All", tab_songs: "Songs", tab_sheets: "Playlists",
    tab_albums: "Albums", tab_artists: "Artists", tab_users: "People", tab_videos: "Videos", followersCount: "{n} followers",
  },
});

const HISTORY_KEY = "cm.searchHistory";
const tabs = ["all", "songs", "sheets", "albums", "artists", "users", "videos"];

/** Keeps a search: on the server when signed in (it counts for hot searches too), else on the device. */
function remember(text) {
  if (store.get().user) {
    searchHistory.record({}, { query: text }).catch(() => {});
    return;
  }
  const list = [text, ...load(HISTORY_KEY, []).filter((item) => item !== text)].slice(0, 12);
  persist(HISTORY_KEY, list);
}

export async function mount(root, { query }) {
  const q = (query.get("q") || "").trim();
  const tab = tabs.includes(query.get("tab")) ? query.get("tab") : "all";
  setHTML(root, html`<header class="top-bar search-bar">
      <form class="search-form" role="search">
        <label class="search-field">${icon("search")}
          <input class="search-input" type="search" name="q" value="${q}" placeholder="${t("searchPlaceholder")}"
            aria-label="${t("search")}" autocomplete="off" enterkeyhint="search" role="combobox" aria-expanded="false" aria-controls="suggest-list" aria-autocomplete="list">
        </label>
        <a class="text-btn cancel-btn" href="/">${t("cancel")}</a>
      </form>
    </header>
    <ul id="suggest-list" class="suggest-list" role="listbox" hidden></ul>
    <div class="search-body"></div>`);
  const input = root.querySelector(".search-input");
  const suggestList = root.querySelector(".suggest-list");
  const body = root.querySelector(".search-body");
  let asked = 0;
  let timer = 0;
  let active = -1;

  const go = (text, replace = false) => {
    const value = text.trim();
    if (!value) return;
    remember(value);
    navigate(`/search?q=${encodeURIComponent(value)}`, { replace });
  };

  const hideSuggestions = () => {
    suggestList.hidden = true;
    input.setAttribute("aria-expanded", "false");
    active = -1;
  };

  const showSuggestions = (text, items) => {
    const rows = [{ title: t("suggestFor", { q: text }), type: "query", id: "" }, ...items];
    setHTML(suggestList, rows.map((item, i) => html`<li id="sg-${i}" role="option" class="suggest" data-i="${i}">
      ${icon(item.type === "query" ? "search" : item.type === "album" ? "disc" : item.type === "artist" ? "mic" : "note")}
      <span>${item.title}</span></li>`));
    suggestList.hidden = false;
    input.setAttribute("aria-expanded", "true");
    suggestList.onclick = (event) => {
      const row = event.target.closest(".suggest");
      if (!row) return;
      const item = rows[Number(row.dataset.i)];
      if (item.type === "album") navigate(`/album/${item.id}`);
      else if (item.type === "artist") navigate(`/artist/${item.id}`);
      else go(item.type === "query" ? text : item.title);
    };
  };

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const text = input.value.trim();
    if (!text) {
      asked += 1;
      hideSuggestions();
      return;
    }
    timer = setTimeout(async () => {
      const mine = ++asked;
      try {
        const items = await catalog.suggestions({ q: text, size: 8 });
        // A slower answer to an older text arrives after a newer one: drop it.
        if (mine !== asked || !root.isConnected) return;
        showSuggestions(text, items);
      } catch {
        if (mine === asked) hideSuggestions();
      }
    }, 150);
  });
  input.addEventListener("keydown", (event) => {
    const options = [...suggestList.querySelectorAll(".suggest")];
    if (suggestList.hidden || !options.length) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : -1) + options.length) % options.length;
      options.forEach((o, i) => o.setAttribute("aria-selected", String(i === active)));
      input.setAttribute("aria-activedescendant", options[active].id);
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      options[active].click();
    } else if (event.key === "Escape") {
      hideSuggestions();
    }
  });
  root.querySelector(".search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    asked += 1;
    hideSuggestions();
    go(input.value);
  });

  if (!q) {
    renderStart(body, go);
    if (matchMedia("(hover: hover)").matches || !("ontouchstart" in window)) input.focus();
    return () => clearTimeout(timer);
  }
  renderResults(body, q, tab);
  const mark = () => markPlaying(body, engine.song?.id);
  engine.addEventListener("song", mark);
  return () => {
    clearTimeout(timer);
    engine.removeEventListener("song", mark);
  };
}

/** Before typing: one's history (with delete and clear) and the week's hot searches. */
async function renderStart(body, go) {
  const signedIn = Boolean(store.get().user);
  const [history, hot] = await Promise.all([
    signedIn ? searchHistory.history().catch(() => []) : Promise.resolve(load(HISTORY_KEY, []).map((query) => ({ query }))),
    searchHistory.hot().catch(() => []),
  ]);
  if (!body.isConnected) return;
  const parts = [];
  if (history.length) {
    parts.push(html`<section class="section search-history"><div class="section-head"><h2>${t("history")}</h2>
      <button class="icon-btn history-clear" type="button" aria-label="${t("clear")}">${icon("trash")}</button></div>
      <ul class="chips">${history.map((entry, i) => html`<li class="chip-item"><button class="chip" type="button" data-i="${i}">${entry.query}</button>${signedIn ? html`<button class="chip-x" type="button" data-x="${i}" aria-label="${t("deleteSearch", { q: entry.query })}">${icon("close")}</button>` : ""}</li>`)}</ul></section>`);
  }
  if (hot.length) {
    parts.push(html`<section class="section hot-searches"><div class="section-head"><h2>${t("hotSearches")}</h2></div>
      <ol class="hot-list">${hot.map((entry, i) => html`<li><button class="hot-row" type="button" data-hot="${i}">
        <span class="hot-rank${i < 3 ? " top" : ""}">${i + 1}</span><span class="hot-query">${entry.query}</span>
        <span class="hot-score">${count(entry.score)}</span></button></li>`)}</ol></section>`);
  }
  setHTML(body, parts);
  body.querySelector(".history-clear")?.addEventListener("click", async () => {
    if (signedIn) await searchHistory.clear().catch(() => {});
    else persist(HISTORY_KEY, []);
    body.querySelector(".search-history")?.remove();
  });
  body.querySelector(".search-history")?.addEventListener("click", async (event) => {
    const remove = event.target.closest("[data-x]");
    if (remove) {
      const entry = history[Number(remove.dataset.x)];
      await searchHistory.delete({ id: entry.id }).catch(() => {});
      remove.closest(".chip-item").remove();
      return;
    }
    const chip = event.target.closest(".chip");
    if (chip) go(history[Number(chip.dataset.i)].query);
  });
  body.querySelector(".hot-list")?.addEventListener("click", (event) => {
    const row = event.target.closest("[data-hot]");
    if (row) go(hot[Number(row.dataset.hot)].query);
  });
}

const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

/** What each tab asks for; 综合 asks for all of them at once. */
async function find(tab, q) {
  const wants = (name) => tab === "all" || tab === name;
  const [catalogFound, sheetPage, people, videoPage] = await Promise.all([
    wants("songs") || wants("albums") || wants("artists") ? settle(catalog.search({ q, size: 30 })) : null,
    wants("sheets") ? settle(sheets.search({ query: q, size: tab === "all" ? 6 : 30 })) : null,
    wants("users") ? settle(follows.searchUsers({ query: q, size: tab === "all" ? 5 : 30 })) : null,
    wants("videos") ? settle(videoAPI.list({ order: "hot", size: 100 })) : null,
  ]);
  const failed = [catalogFound, sheetPage, people, videoPage].find((r) => r?.error);
  if (failed && ![catalogFound, sheetPage, people, videoPage].some((r) => r?.value)) throw failed.error;
  const words = q.toLowerCase();
  return {
    songs: catalogFound?.value?.songs ?? [],
    albums: catalogFound?.value?.albums ?? [],
    artists: catalogFound?.value?.artists ?? [],
    sheets: sheetPage?.value?.data ?? [],
    users: people?.value ?? [],
    // The video list has no search of its own: titles and singers of the hottest hundred are matched here.
    videos: (videoPage?.value?.data ?? []).filter((v) => `${v.title} ${v.song?.title ?? ""} ${(v.song?.artists ?? []).map((a) => a.name).join(" ")}`.toLowerCase().includes(words)),
  };
}

function songList(songs) {
  return html`<div class="results-head"><button class="pill-btn play-all" type="button">${icon("play")}${t("playAll")}</button></div>
    <ol class="song-list">${songs.map((s, i) => songRow(s, i, { showCover: true }))}</ol>`;
}
const artistList = (artists) => html`<ul class="artist-list">${artists.map((a) => html`<li><a class="artist-row" href="/artist/${a.id}">
  ${img(a, 52, "round", "")}<span class="artist-name">${a.name}</span><span class="artist-meta">${t("tracks", { n: a.songsCount })}</span></a></li>`)}</ul>`;
const userList = (users) => html`<ul class="artist-list">${users.map((u) => html`<li><a class="artist-row" href="/user/${u.id}">
  ${avatar(u, 52)}<span class="artist-name">${u.nickname}</span><span class="artist-meta">${t("followersCount", { n: count(u.followersCount ?? 0) })}</span></a></li>`)}</ul>`;
const videoGrid = (list) => html`<div class="card-grid videos">${list.map(videoCard)}</div>`;

async function renderResults(body, q, tab) {
  setHTML(body, html`<div class="tabs search-tabs" role="tablist">${tabs.map((name) => html`<a class="tab-link${name === tab ? " active" : ""}" role="tab"
      aria-selected="${name === tab}" href="/search?q=${encodeURIComponent(q)}&tab=${name}">${t(`tab_${name}`)}</a>`)}</div>
    <div class="results">${loadingBlock()}</div>`);
  const results = body.querySelector(".results");
  try {
    const found = await find(tab, q);
    if (!results.isConnected) return;
    const none = emptyBlock(t("noResults", { q }));
    const more = (name) => html`<a class="more-link" href="/search?q=${encodeURIComponent(q)}&tab=${name}">${t("more")}${icon("right")}</a>`;
    const block = (name, content) => html`<section class="section"><div class="section-head"><h2>${t(`tab_${name}`)}</h2>${more(name)}</div>${content}</section>`;
    let songs = found.songs;
    if (tab === "all") {
      songs = found.songs.slice(0, 5);
      const parts = [];
      if (songs.length) parts.push(block("songs", songList(songs)));
      if (found.sheets.length) parts.push(block("sheets", html`<div class="card-grid">${found.sheets.slice(0, 6).map(sheetCard)}</div>`));
      if (found.albums.length) parts.push(block("albums", html`<div class="card-grid albums">${found.albums.slice(0, 3).map(albumCard)}</div>`));
      if (found.artists.length) parts.push(block("artists", artistList(found.artists.slice(0, 3))));
      if (found.users.length) parts.push(block("users", userList(found.users.slice(0, 3))));
      if (found.videos.length) parts.push(block("videos", videoGrid(found.videos.slice(0, 4))));
      setHTML(results, parts.length ? parts : none);
    } else if (tab === "songs") setHTML(results, songs.length ? songList(songs) : none);
    else if (tab === "sheets") setHTML(results, found.sheets.length ? html`<div class="card-grid">${found.sheets.map(sheetCard)}</div>` : none);
    else if (tab === "albums") setHTML(results, found.albums.length ? html`<div class="card-grid albums">${found.albums.map(albumCard)}</div>` : none);
    else if (tab === "artists") setHTML(results, found.artists.length ? artistList(found.artists) : none);
    else if (tab === "users") setHTML(results, found.users.length ? userList(found.users) : none);
    else setHTML(results, found.videos.length ? videoGrid(found.videos) : none);
    const list = results.querySelector(".song-list");
    // One song tapped goes after the current one and plays; "play all" replaces the queue.
    if (list) bindSongList(list, () => songs, undefined, { insert: true });
    results.querySelector(".play-all")?.addEventListener("click", () => engine.playList(songs, 0));
    markPlaying(results, engine.song?.id);
  } catch (error) {
    if (!results.isConnected) return;
    setHTML(results, errorBlock(error));
    results.querySelector("[data-action=retry]").addEventListener("click", () => renderResults(body, q, tab));
  }
}
