// Videos (MVs): newest or hottest, as cards with their still and length.
import { videos } from "../api.js";
import { t, count, duration } from "../i18n.js";
import { icon } from "../icons.js";
import { esc, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { media } from "../media.js";
import "../i18n-social.js";

export function videoCard(video) {
  return `<a class="video-card" href="/video/${esc(video.id)}">
    <span class="video-thumb">${video.icon ? `<img src="${esc(media(video.icon))}" alt="" loading="lazy" decoding="async">` : ""}
      <span class="video-views">${icon("play")}${esc(count(video.clicksCount))}</span><span class="video-len">${duration(video.duration)}</span></span>
    <span class="card-title">${esc(video.title)}</span><span class="card-sub">${esc(video.singer?.name ?? "")}</span></a>`;
}

export async function mount(root, { query }) {
  const order = query.get("order") === "hot" ? "hot" : "new";
  root.innerHTML = `<header class="top-bar"><h1 class="top-title">${esc(t("videos"))}</h1></header>
    <nav class="tabs"><a class="tab-link${order === "new" ? " active" : ""}" href="/videos">${esc(t("newest"))}</a>
      <a class="tab-link${order === "hot" ? " active" : ""}" href="/videos?order=hot">${esc(t("hot"))}</a></nav>
    <div class="video-grid">${loadingBlock()}</div>`;
  const grid = root.querySelector(".video-grid");
  try {
    const page = await videos.list({ order, size: 30 });
    if (!root.isConnected) return;
    grid.innerHTML = page.data.length ? page.data.map(videoCard).join("") : emptyBlock(t("noVideos"));
  } catch (error) {
    if (root.isConnected) grid.innerHTML = errorBlock(error);
  }
}
