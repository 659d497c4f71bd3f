// Search: suggestions while typing (after a 150 ms pause; an answer to an older text is dropped), results
// in songs, albums, artists and sheets, and the history of searches kept on this device.
import { catalog, sheets } from "../api.js";
import { load, persist } from "../store.js";
import { engine } from "../player.js";
import { navigate } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { esc, img, songRow, markPlaying, emptyBlock, loadingBlock, errorBlock } from "../ui.js";
import { bindSongList } from "../actions.js";
import { sheetCard, albumCard } from "./home.js";

const HISTORY_KEY = "cm.searchHistory";
const tabs = ["songs", "albums", "artists", "sheets"];

function remember(text) {
  const list = [text, ...load(HISTORY_KEY, []).filter((item) => item !== text)].slice(0, 12);
  persist(HISTORY_KEY, list);
}

export async function mount(root, { query }) {
  const q = (query.get("q") || "").trim();
  const tab = tabs.includes(query.get("tab")) ? query.get("tab") : "songs";
  root.innerHTML = `<header class="top-bar search-bar">
      <form class="search-form" role="search">
        <label class="search-field">${icon("search")}
          <input class="search-input" type="search" name="q" value="${esc(q)}" placeholder="${esc(t("searchPlaceholder"))}"
            aria-label="${esc(t("search"))}" autocomplete="off" enterkeyhint="search" role="combobox" aria-expanded="false" aria-controls="suggest-list" aria-autocomplete="list">
        </label>
        <a class="text-btn cancel-btn" href="/">${esc(t("cancel"))}</a>
      </form>
    </header>
    <ul id="suggest-list" class="suggest-list" role="listbox" hidden></ul>
    <div class="search-body"></div>`;
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
    suggestList.innerHTML = rows.map((item, i) => `<li id="sg-${i}" role="option" class="suggest" data-i="${i}">
      ${icon(item.type === "query" ? "search" : item.type === "album" ? "disc" : item.type === "artist" ? "mic" : "note")}
      <span>${esc(item.title)}</span></li>`).join("");
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
    renderHistory(body, go);
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

function renderHistory(body, go) {
  const list = load(HISTORY_KEY, []);
  if (!list.length) {
    body.innerHTML = "";
    return;
  }
  body.innerHTML = `<section class="section"><div class="section-head"><h2>${esc(t("history"))}</h2>
      <button class="icon-btn history-clear" type="button" aria-label="${esc(t("clear"))}">${icon("trash")}</button></div>
      <div class="chips">${list.map((text) => `<button class="chip" type="button">${esc(text)}</button>`).join("")}</div></section>`;
  body.querySelector(".history-clear").addEventListener("click", () => {
    persist(HISTORY_KEY, []);
    body.innerHTML = "";
  });
  body.querySelector(".chips").addEventListener("click", (event) => {
    const chip = event.target.closest(".chip");
    if (chip) go(chip.textContent);
  });
}

async function renderResults(body, q, tab) {
  body.innerHTML = `<div class="tabs" role="tablist">${tabs.map((name) => `<a class="tab-link${name === tab ? " active" : ""}" role="tab"
      aria-selected="${name === tab}" href="/search?q=${encodeURIComponent(q)}&tab=${name}">${esc(t(name))}</a>`).join("")}</div>
    <div class="results">${loadingBlock()}</div>`;
  const results = body.querySelector(".results");
  try {
    if (tab === "sheets") {
      const page = await sheets.search({ query: q, size: 30 });
      if (!results.isConnected) return;
      results.innerHTML = page.data.length ? `<div class="card-grid">${page.data.map(sheetCard).join("")}</div>` : emptyBlock(t("noResults", { q }));
      return;
    }
    const found = await catalog.search({ q, size: 30 });
    if (!results.isConnected) return;
    if (tab === "songs") {
      results.innerHTML = found.songs.length ? `<ol class="song-list">${found.songs.map((s, i) => songRow(s, i, { showCover: true })).join("")}</ol>` : emptyBlock(t("noResults", { q }));
      const list = results.querySelector(".song-list");
      if (list) bindSongList(list, () => found.songs);
      markPlaying(results, engine.song?.id);
    } else if (tab === "albums") {
      results.innerHTML = found.albums.length ? `<div class="card-grid albums">${found.albums.map(albumCard).join("")}</div>` : emptyBlock(t("noResults", { q }));
    } else {
      results.innerHTML = found.artists.length ? `<ul class="artist-list">${found.artists.map((a) => `<li><a class="artist-row" href="/artist/${esc(a.id)}">
        ${img(a, 52, "round", "")}<span class="artist-name">${esc(a.name)}</span><span class="artist-meta">${esc(t("tracks", { n: a.songsCount }))}</span></a></li>`).join("")}</ul>` : emptyBlock(t("noResults", { q }));
    }
  } catch (error) {
    if (!results.isConnected) return;
    results.innerHTML = errorBlock(error);
    results.querySelector("[data-action=retry]").addEventListener("click", () => renderResults(body, q, tab));
  }
}
