// Lists to browse from the home entries: top songs, all sheets, artists, albums and genres, a page at a
// time as the list scrolls.
import { catalog, sheets } from "../api.js";
import { engine } from "../player.js";
import { back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { addHTML, setHTML, html, img, songRow, markPlaying, emptyBlock, loadingBlock, errorBlock } from "../ui.js";
import { bindSongList } from "../actions.js";
import { sheetCard, albumCard } from "./home.js";

const kinds = {
  songs: {
    title: (q) => t(q.get("sort") === "recent" ? "newSongs" : "hotSongs"),
    fetch: (page, q) => catalog.songs({ page, size: 50, sort: q.get("sort") === "recent" ? "recent" : "plays" }),
    wrap: (items) => html`<ol class="song-list">${items}</ol>`,
    item: (song, i) => songRow(song, i, { showCover: true }),
  },
  sheets: {
    title: () => t("allSheets"),
    fetch: (page) => sheets.list({ page, size: 30, order: "hot" }),
    wrap: (items) => html`<div class="card-grid">${items}</div>`,
    item: sheetCard,
    empty: () => t("emptySheets"),
  },
  albums: {
    title: () => t("allAlbums"),
    fetch: (page) => catalog.albums({ page, size: 30, sort: "recent" }),
    wrap: (items) => html`<div class="card-grid albums">${items}</div>`,
    item: albumCard,
  },
  artists: {
    title: () => t("allArtists"),
    fetch: (page) => catalog.artists({ page, size: 50, sort: "name" }),
    wrap: (items) => html`<ul class="artist-list">${items}</ul>`,
    item: (a) => html`<li><a class="artist-row" href="/artist/${a.id}">${img(a, 52, "round", "")}
      <span class="artist-name">${a.name}</span><span class="artist-meta">${t("tracks", { n: a.songsCount })}</span></a></li>`,
  },
  genres: {
    title: () => t("allGenres"),
    fetch: (page) => catalog.genres({ page, size: 100 }),
    wrap: (items) => html`<div class="genre-grid">${items}</div>`,
    item: (g, i) => html`<a class="genre-tile hue-${i % 8}" href="/genre/${g.id}?name=${encodeURIComponent(g.name)}">
      <span class="genre-name">${g.name}</span><span class="genre-count">${t("tracks", { n: g.songsCount })}</span></a>`,
  },
};

export async function mount(root, { params, query }) {
  const kind = kinds[params.kind] ?? kinds.songs;
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
    <h1 class="top-title">${kind.title(query)}</h1></header><div class="browse-body">${loadingBlock()}</div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/"));
  const body = root.querySelector(".browse-body");
  const items = [];
  let observer = null;
  const mark = () => markPlaying(body, engine.song?.id);
  const load = async () => {
    let page;
    try {
      page = await kind.fetch(1, query);
    } catch (error) {
      if (!root.isConnected) return;
      setHTML(body, errorBlock(error));
      body.querySelector("[data-action=retry]").addEventListener("click", load);
      return;
    }
    if (!root.isConnected) return;
    items.push(...page.data);
    if (!items.length) {
      setHTML(body, emptyBlock(kind.empty?.() ?? t("noMore")));
      return;
    }
    setHTML(body, [kind.wrap(items.map(kind.item)), html`<div class="sentinel"></div>`]);
    const container = body.firstElementChild;
    if (params.kind === "songs" || !kinds[params.kind]) bindSongList(container, () => items);
    mark();
    let next = page.next;
    if (!next) return;
    observer = new IntersectionObserver(async (entries) => {
      if (!entries.some((e) => e.isIntersecting) || !next) return;
      const asked = next;
      next = null;
      const more = await kind.fetch(asked, query).catch(() => null);
      if (!more || !root.isConnected) {
        next = asked;
        return;
      }
      next = more.next;
      const start = items.length;
      items.push(...more.data);
      addHTML(container, more.data.map((item, i) => kind.item(item, start + i)), "beforeend");
      mark();
      if (!next) observer.disconnect();
    });
    observer.observe(body.querySelector(".sentinel"));
  };
  engine.addEventListener("song", mark);
  await load();
  return () => {
    observer?.disconnect();
    engine.removeEventListener("song", mark);
  };
}
