// Videos (MVs): newest or hottest, as cards with their still and length.
import { videos } from "../api.js";
import { t, count, duration } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { media } from "../media.js";
import "../i18n-social.js";

export function videoCard(video) {
  return html`<a class="video-card" href="/video/${video.id}">
    <span class="video-thumb">${video.icon ? html`<img src="${media(video.icon)}" alt="" loading="lazy" decoding="async">` : ""}
      <span class="video-views">${icon("play")}${count(video.clicksCount)}</span><span class="video-len">${duration(video.duration)}</span></span>
    <span class="card-title">${video.title}</span><span class="card-sub">${video.singer?.name ?? ""}</span></a>`;
}

export async function mount(root, { query }) {
  const order = query.get("order") === "hot" ? "hot" : "new";
  setHTML(root, html`<header class="top-bar"><h1 class="top-title">${t("videos")}</h1></header>
    <nav class="tabs"><a class="tab-link${order === "new" ? " active" : ""}" href="/videos">${t("newest")}</a>
      <a class="tab-link${order === "hot" ? " active" : ""}" href="/videos?order=hot">${t("hot")}</a></nav>
    <div class="video-grid">${loadingBlock()}</div>`);
  const grid = root.querySelector(".video-grid");
  try {
    const page = await videos.list({ order, size: 30 });
    if (!root.isConnected) return;
    setHTML(grid, page.data.length ? page.data.map(videoCard) : emptyBlock(t("noVideos")));
  } catch (error) {
    if (root.isConnected) setHTML(grid, errorBlock(error));
  }
}
