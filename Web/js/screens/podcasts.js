// Podcasts (issue 30): the list (continue listening, my subscriptions, all podcasts), a podcast's album page
// (cover, author, description, subscribe, episodes paged by number, the next page by the server's cursor,
// newest or oldest first, with played and finished marks) and an episode's page (play or resume, like, share to
// moments, speed, sleep timer, skips of 15 s, notes as text, chapters that seek, the transcript, comments).
// Playback and saving the place are episode-player.js's.
import { podcasts, comments } from "../api.js";
import "../i18n-podcasts.js";
import { t, duration, count } from "../i18n.js";
import { navigate } from "../router.js";
import * as store from "../store.js";
import { setHTML, html, img, loadingBlock, errorBlock, emptyBlock, toast, safeLink } from "../ui.js";
import { icon } from "../icons.js";
import { engine } from "../player.js";
import { requireSignIn } from "../actions.js";
import { frame, head, failed, action } from "../detail.js";
import * as episodes from "../episode-player.js";
import { commentSection } from "./comments.js";

const PAGE_SIZE = 20;
const coverOf = (podcast) => ({ icon: podcast.imageUrl ? `v1/podcasts/${podcast.id}/cover` : null });
const signedIn = () => !!store.get().user;

/** The date an episode came out, in the reader's words. */
function day(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleDateString();
}

/** "Played", "40% played", or nothing. */
function mark(episode) {
  const p = episode.progress;
  if (!p?.updatedAt) return "";
  if (p.finished) return html`<span class="episode-mark finished">${icon("done")}${t("finished")}</span>`;
  const percent = episode.duration ? Math.min(99, Math.max(1, Math.round((p.position / episode.duration) * 100))) : null;
  return html`<span class="episode-mark">${percent ? t("playedPercent", { n: percent }) : duration(p.position, true)}</span>`;
}

const isBook = (p) => p.kind === "audiobook";

/** An audiobook's reader and series ("演播：…", "三体 · 第 2 部"). */
function bookLines(p) {
  if (!isBook(p)) return [];
  return [p.narrator ? t("narratedBy", { n: p.narrator }) : "",
    p.series ? (p.seriesPart != null ? t("seriesPart", { s: p.series, n: p.seriesPart }) : p.series) : ""].filter(Boolean);
}

function podcastRow(p) {
  const count = isBook(p) ? t("partsCount", { n: p.episodesCount }) : t("episodesCount", { n: p.episodesCount });
  return html`<li><a class="podcast-row${isBook(p) ? " book-row" : ""}" href="/podcast/${p.id}">${img(coverOf(p), 56, "podcast-cover", "")}
    <span class="podcast-text"><span class="podcast-title">${p.title}</span>
    <span class="podcast-sub">${[p.author, ...bookLines(p), count].filter(Boolean).join(" · ")}</span></span></a></li>`;
}

function episodeRow(e, { number, showPodcast = false } = {}) {
  const sub = [showPodcast ? e.podcastTitle : "", day(e.publishedAt), e.duration ? duration(e.duration, true) : ""].filter(Boolean).join(" · ");
  return html`<li class="episode-row" data-id="${e.id}">
    ${number != null ? html`<span class="episode-number">${number}</span>` : ""}
    <a class="episode-text" href="/episode/${e.id}"><span class="episode-title">${e.title}</span>
      <span class="episode-sub">${sub} ${mark(e)}</span></a>
    <button class="icon-btn episode-play" type="button" aria-label="${t("playEpisode")}: ${e.title}">${icon("play")}</button></li>`;
}

function topBar(root, title, body) {
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-link" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${title}</h1></header><main class="podcasts">${body}</main>`);
  root.querySelector(".back-link").addEventListener("click", () => history.length > 1 ? history.back() : navigate("/"));
  return root.querySelector(".podcasts");
}

/** Rows of episodes whose play buttons play them (the rest of `list` after each). */
function bindEpisodes(box, list) {
  box.addEventListener("click", (event) => {
    const button = event.target.closest(".episode-play");
    if (!button) return;
    const episode = list().find((e) => e.id === button.closest(".episode-row").dataset.id);
    if (episode) episodes.playEpisode(episode, list());
  });
}

async function section(box, cls, title, load, render) {
  const holder = document.createElement("section");
  holder.className = `section ${cls}`;
  box.append(holder);
  setHTML(holder, html`<div class="section-head"><h2>${title}</h2></div>${loadingBlock()}`);
  try {
    const page = await load();
    setHTML(holder, html`<div class="section-head"><h2>${title}</h2></div>${render(page)}`);
    return page;
  } catch (error) {
    setHTML(holder, html`<div class="section-head"><h2>${title}</h2></div>${errorBlock(error)}`);
    return null;
  }
}

async function list(root) {
  const box = topBar(root, t("podcasts"), html`<form class="podcast-search" role="search"><input type="search" name="q" maxlength="100"
      placeholder="${t("podcastSearch")}" aria-label="${t("podcastSearch")}"></form>`);
  if (signedIn()) {
    const resumed = await section(box, "continue-listening", t("continueListening"), () => podcasts.continueListening({ size: 10 }),
      (page) => page.data.length ? html`<ol class="episode-list">${page.data.map((e) => episodeRow(e, { showPodcast: true }))}</ol>` : "");
    if (resumed?.data.length) bindEpisodes(box.querySelector(".continue-listening"), () => resumed.data);
    else box.querySelector(".continue-listening")?.remove();
    await section(box, "subscriptions", t("mySubscriptions"), () => podcasts.subscriptions({ size: 50 }),
      (page) => page.data.length ? html`<ul class="podcast-list">${page.data.map(podcastRow)}</ul>` : emptyBlock(t("noSubscriptions")));
  }
  // Everything, feeds only, or the audiobooks folder's books (有声书).
  const kinds = document.createElement("div");
  kinds.className = "podcast-kinds";
  kinds.setAttribute("role", "group");
  kinds.setAttribute("aria-label", t("podcastKinds"));
  box.append(kinds);
  const all = document.createElement("div");
  box.append(all);
  let kind = "";
  let q = "";
  const renderKinds = () => setHTML(kinds, html`${[["", t("allKinds")], ["podcast", t("podcasts")], ["audiobook", t("audiobooks")]].map(([k, label]) =>
    html`<button class="pill-btn kind-${k || "all"}${k === kind ? " primary" : ""}" type="button" data-kind="${k}" aria-pressed="${k === kind}">${label}</button>`)}`);
  const showAll = async () => {
    all.replaceChildren();
    const title = kind === "audiobook" ? t("audiobooks") : t("allPodcasts");
    await section(all, "all-podcasts", title, () => podcasts.list({ size: 50, ...(q ? { q } : {}), ...(kind ? { kind } : {}) }),
      (page) => page.data.length ? html`<ul class="podcast-list">${page.data.map(podcastRow)}</ul>` : emptyBlock(kind === "audiobook" ? t("noBooks") : t("noPodcasts")));
  };
  kinds.addEventListener("click", (event) => {
    const button = event.target.closest("[data-kind]");
    if (!button || button.dataset.kind === kind) return;
    kind = button.dataset.kind;
    renderKinds();
    showAll();
  });
  box.querySelector(".podcast-search").addEventListener("submit", (event) => {
    event.preventDefault();
    q = event.target.q.value.trim();
    showAll();
  });
  renderKinds();
  await showAll();
}

async function album(root, id, query) {
  frame(root, t("podcasts"), "/podcasts");
  let sort = query.get?.("sort") === "oldest" ? "oldest" : "newest";
  let pageNumber = Math.max(1, Number(query.get?.("page")) || 1);
  // The next page goes by the server's cursor (as cheap on page 250 as on page 1); a page typed or jumped to
  // goes by number.
  let cursor = null;
  let podcast;
  let shown = [];
  const renderHead = () => head(root, {
    thing: coverOf(podcast),
    title: podcast.title,
    lines: [podcast.author ?? "", ...bookLines(podcast).map((line) => html`<span class="detail-desc book-line">${line}</span>`),
      html`<span class="detail-desc podcast-detail">${podcast.detail}</span>`,
      podcast.categories?.length ? html`<span class="detail-desc">${podcast.categories.join(" · ")}</span>` : ""].filter(Boolean),
    actions: action("subscribe", podcast.subscribed ? "done" : "plus", podcast.subscribed ? t("subscribed") : t("subscribe"), { on: !!podcast.subscribed }),
  });
  const loadPage = async () => {
    const body = root.querySelector(".detail-body");
    setHTML(body, loadingBlock());
    let page;
    try {
      page = await podcasts.episodes(cursor ? { id, sort, size: PAGE_SIZE, cursor } : { id, sort, page: pageNumber, size: PAGE_SIZE });
    } catch (error) {
      // A cursor the server no longer takes (its key changed): the same page by number.
      if (cursor && root.isConnected) {
        cursor = null;
        return loadPage();
      }
      if (root.isConnected) failed(root, error, loadPage);
      return;
    }
    if (!root.isConnected) return;
    shown = page.data;
    pageNumber = page.page || pageNumber;
    const nextCursor = page.nextCursor;
    const pages = Math.max(1, page.pages);
    const first = (pageNumber - 1) * PAGE_SIZE;
    // Numbered from the oldest: the same episode keeps its number in either order.
    const numberOf = (i) => sort === "oldest" ? first + i + 1 : page.total - first - i;
    // A book's parts are always in their order: no sorting.
    setHTML(body, html`<div class="episode-tools" role="group" aria-label="${t("sortEpisodes")}">
        <span class="episode-total">${isBook(podcast) ? t("partsCount", { n: page.total }) : t("episodesCount", { n: page.total })}</span>
        ${isBook(podcast) ? "" : ["newest", "oldest"].map((s) => html`<button class="pill-btn sort-${s}${s === sort ? " primary" : ""}" type="button" data-sort="${s}" aria-pressed="${s === sort}">${t(s)}</button>`)}</div>
      ${shown.length ? html`<ol class="episode-list">${shown.map((e, i) => episodeRow(e, { number: e.episode ?? numberOf(i) }))}</ol>` : emptyBlock(t("noEpisodes"))}
      ${pages > 1 ? html`<nav class="pager" aria-label="${t("pageOf", { p: pageNumber, n: pages })}">
        <button class="pill-btn prev-page" type="button" ${pageNumber <= 1 ? "disabled" : ""}>${t("prevPage")}</button>
        <span class="page-of">${t("pageOf", { p: pageNumber, n: pages })}</span>
        <button class="pill-btn next-page" type="button" ${pageNumber >= pages ? "disabled" : ""}>${t("nextPage")}</button></nav>` : ""}`);
    const go = (patch) => {
      if (patch.sort) sort = patch.sort;
      if (patch.page) pageNumber = patch.page;
      cursor = patch.cursor ?? null;
      history.replaceState(history.state, "", `/podcast/${id}?sort=${sort}&page=${pageNumber}`);
      loadPage();
    };
    body.querySelector(".episode-tools").addEventListener("click", (event) => {
      const button = event.target.closest("[data-sort]");
      if (button && button.dataset.sort !== sort) go({ sort: button.dataset.sort, page: 1 });
    });
    body.querySelector(".prev-page")?.addEventListener("click", () => go({ page: pageNumber - 1 }));
    body.querySelector(".next-page")?.addEventListener("click", () => go({ page: pageNumber + 1, cursor: nextCursor }));
  };
  try {
    podcast = await podcasts.detail({ id });
  } catch (error) {
    if (root.isConnected) failed(root, error, () => album(root, id, query));
    return;
  }
  if (!root.isConnected) return;
  renderHead();
  root.querySelector(".detail-actions").addEventListener("click", async (event) => {
    if (!event.target.closest('[data-head="subscribe"]') || !requireSignIn()) return;
    try {
      podcast = podcast.subscribed ? await podcasts.unsubscribe({ id }) : await podcasts.subscribe({ id });
      toast(podcast.subscribed ? t("subscribed") : t("subscribe"));
      renderHead();
    } catch (error) {
      toast(error.message);
    }
  });
  bindEpisodes(root.querySelector(".detail-body"), () => shown);
  await loadPage();
}

function clock(seconds) {
  return duration(Math.max(0, seconds), true);
}

async function episodePage(root, id) {
  frame(root, t("episode"), "/podcasts");
  let episode;
  try {
    episode = await podcasts.episode({ id });
  } catch (error) {
    if (root.isConnected) failed(root, error, () => episodePage(root, id));
    return;
  }
  if (!root.isConnected) return;
  const resumeAt = episode.progress && !episode.progress.finished && episode.progress.position > 0 ? episode.progress.position : 0;
  head(root, {
    thing: { icon: `v1/podcasts/${episode.podcastId}/cover` },
    title: episode.title,
    lines: [html`<a class="head-link" href="/podcast/${episode.podcastId}">${episode.podcastTitle}</a>`,
      html`<span class="detail-desc">${[day(episode.publishedAt), episode.duration ? duration(episode.duration, true) : ""].filter(Boolean).join(" · ")} ${mark(episode)}</span>`],
    actions: html`${action("play", "play", resumeAt ? t("resumeAt", { t: clock(resumeAt) }) : t("playEpisode"))}
      ${action("like", "thumbLine", t("likeEpisode"))}${action("share", "send", t("shareToMoment"))}`,
  });
  // The like button: the count (or "like"), pressed when the viewer likes it.
  const likeButton = root.querySelector('[data-head="like"]');
  const renderLike = () => {
    const on = Boolean(episode.likeId);
    likeButton.classList.toggle("on", on);
    likeButton.setAttribute("aria-pressed", String(on));
    likeButton.setAttribute("aria-label", episode.likesCount ? t("likeEpisodeN", { n: episode.likesCount }) : t("likeEpisode"));
    setHTML(likeButton, html`${icon(on ? "thumb" : "thumbLine")}<span class="like-count">${episode.likesCount ? count(episode.likesCount) : t("likeEpisode")}</span>`);
  };
  renderLike();
  let liking = false;
  const toggleLike = async () => {
    if (liking || !requireSignIn()) return;
    liking = true;
    try {
      if (episode.likeId) {
        await comments.unlike({ id: episode.likeId });
        episode = { ...episode, likeId: null, likesCount: Math.max(0, episode.likesCount - 1) };
      } else {
        const liked = await comments.like({}, { episodeId: episode.id });
        episode = { ...episode, likeId: liked.likeId, likesCount: liked.likesCount };
      }
      renderLike();
    } catch (error) {
      toast(error.message);
    } finally {
      liking = false;
    }
  };
  const isCurrent = () => episodes.current()?.episodeId === episode.id;
  const body = root.querySelector(".detail-body");
  setHTML(body, html`<section class="episode-player" aria-label="${t("listenNow")}">
      <div class="episode-time"><span class="time-now">0:00</span><input class="episode-seek" type="range" min="0" max="1000" value="0" aria-label="${t("episode")}"><span class="time-total">${clock(episode.duration ?? 0)}</span></div>
      <div class="episode-controls">
        <button class="icon-btn skip-back" type="button" aria-label="${t("back15")}"><span class="skip-label">-15</span></button>
        <button class="icon-btn episode-toggle" type="button" aria-label="${t("playEpisode")}">${icon("play")}</button>
        <button class="icon-btn skip-forward" type="button" aria-label="${t("forward15")}"><span class="skip-label">+15</span></button>
      </div>
      <div class="episode-options">
        <label>${t("speed")} <select class="episode-speed">${episodes.SPEEDS.map((s) => html`<option value="${s}">${s}×</option>`)}</select></label>
        <label>${t("sleepTimer")} <select class="episode-sleep"><option value="">${t("sleepOff")}</option>
          ${episodes.SLEEPS.map((s) => html`<option value="${s}">${s === "end" ? t("sleepEnd") : t("sleepMinutes", { n: s })}</option>`)}</select></label>
        <span class="sleep-note" aria-live="polite"></span>
      </div></section>
    <section class="section episode-chapters" hidden><div class="section-head"><h2>${t("chapters")}</h2></div><ol class="chapter-list"></ol></section>
    <section class="section episode-notes"><div class="section-head"><h2>${t("notes")}</h2></div><p class="notes-text">${episode.detail}</p></section>
    ${episode.transcriptUrl ? html`<section class="section episode-transcript"><div class="section-head"><h2>${t("transcript")}</h2></div>
      <button class="pill-btn show-transcript" type="button">${t("showTranscript")}</button><p class="transcript-text" hidden></p></section>` : ""}
    <section class="section episode-comments" aria-labelledby="episode-comments-title"><div class="section-head"><h2 id="episode-comments-title">${t("episodeComments")}</h2></div>
      <div class="episode-composer"></div><div class="episode-comment-list"></div></section>`);
  const q = (selector) => body.querySelector(selector);
  // The comments: the same section as songs', videos' and moments', its composer in the page, not docked.
  commentSection(q(".episode-comment-list"), q(".episode-composer"), { episodeId: episode.id }, {
    onCount: (value, delta = 0) => {
      const total = value ?? (Number(q(".episode-comments").dataset.total) || 0) + delta;
      q(".episode-comments").dataset.total = String(total);
      q("#episode-comments-title").textContent = total ? `${t("episodeComments")} (${count(total)})` : t("episodeComments");
    },
  });
  const start = (at) => {
    if (isCurrent()) {
      if (at != null) engine.seek(at);
      if (!engine.playing) engine.play();
      return;
    }
    const progress = at != null ? { position: at, finished: false, updatedAt: "now" } : episode.progress;
    episodes.playEpisode({ ...episode, progress });
  };
  root.querySelector(".detail-actions").addEventListener("click", (event) => {
    if (event.target.closest('[data-head="play"]')) start(null);
    if (event.target.closest('[data-head="like"]')) toggleLike();
    if (event.target.closest('[data-head="share"]') && requireSignIn()) navigate(`/moments/new?episode=${encodeURIComponent(episode.id)}`);
  });
  q(".episode-toggle").addEventListener("click", () => (isCurrent() ? engine.toggle() : start(null)));
  q(".skip-back").addEventListener("click", () => isCurrent() && episodes.skip(-15));
  q(".skip-forward").addEventListener("click", () => isCurrent() && episodes.skip(15));
  const seek = q(".episode-seek");
  let dragging = false;
  seek.addEventListener("input", () => { dragging = true; });
  seek.addEventListener("change", () => {
    dragging = false;
    const total = engine.duration() || episode.duration || 0;
    if (isCurrent() && total) engine.seek((Number(seek.value) / 1000) * total);
  });
  const speed = q(".episode-speed");
  speed.value = String(episodes.getSpeed());
  speed.addEventListener("change", () => episodes.setSpeed(Number(speed.value)));
  const sleep = q(".episode-sleep");
  sleep.addEventListener("change", () => episodes.setSleep(sleep.value === "" ? null : sleep.value));
  const renderOptions = () => {
    speed.value = String(episodes.getSpeed());
    const s = episodes.getSleep();
    sleep.value = s ? String(s.choice) : "";
    q(".sleep-note").textContent = !s ? "" : s.until ? t("sleepsAt", { t: clock((s.until - Date.now()) / 1000) }) : t("sleepsAtEnd");
  };
  const renderTime = () => {
    const mine = isCurrent();
    const total = mine ? engine.duration() || episode.duration || 0 : episode.duration || 0;
    const now = mine ? engine.time() : resumeAt;
    q(".time-now").textContent = clock(now);
    q(".time-total").textContent = clock(total);
    if (!dragging) seek.value = String(total ? Math.round((now / total) * 1000) : 0);
    const playing = mine && engine.playing;
    setHTML(q(".episode-toggle"), icon(playing ? "pause" : "play"));
    q(".episode-toggle").setAttribute("aria-label", playing ? t("pause") : t("playEpisode"));
    body.classList.toggle("is-current", mine);
  };
  renderOptions();
  renderTime();
  const stop = new AbortController();
  for (const type of ["time", "state", "song"]) engine.addEventListener(type, renderTime, { signal: stop.signal });
  const stopOptions = episodes.onChange(renderOptions);
  const ticker = setInterval(renderOptions, 1000);

  if (episode.chaptersUrl) {
    podcasts.chapters({ id }).then(({ chapters }) => {
      if (!root.isConnected || !chapters.length) return;
      const section = q(".episode-chapters");
      setHTML(section.querySelector(".chapter-list"), chapters.map((c, i) => html`<li><button class="chapter" type="button" data-index="${i}">
        <span class="chapter-start">${clock(c.start)}</span> <span class="chapter-title">${c.title ?? ""}</span></button>
        ${safeLink(c.url) ? html`<a class="chapter-link" href="${safeLink(c.url)}" target="_blank" rel="noopener noreferrer">${icon("right")}<span class="visually-hidden">${c.title ?? ""}</span></a>` : ""}</li>`));
      section.hidden = false;
      section.addEventListener("click", (event) => {
        const button = event.target.closest(".chapter");
        if (button) start(chapters[Number(button.dataset.index)].start);
      });
    }).catch((error) => toast(error.message));
  }
  q(".show-transcript")?.addEventListener("click", async (event) => {
    event.target.disabled = true;
    try {
      const { text } = await podcasts.transcript({ id });
      const box = q(".transcript-text");
      box.textContent = text;
      box.hidden = false;
      event.target.hidden = true;
    } catch (error) {
      event.target.disabled = false;
      toast(error.message);
    }
  });
  return () => {
    stop.abort();
    stopOptions();
    clearInterval(ticker);
  };
}

export async function mount(root, { params, query }) {
  const path = location.pathname;
  if (path.startsWith("/episode/")) return episodePage(root, params.id);
  if (path.startsWith("/podcast/")) return album(root, params.id, query ?? new URLSearchParams(location.search));
  return list(root);
}
