// A #topic#: its newest moments and comments.
import { comments } from "../api.js";
import { back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, errorBlock, loadingBlock, emptyBlock } from "../ui.js";
import { momentCard, bindMoments } from "./moments.js";
import { commentItem } from "./comments.js";
import "../i18n-social.js";

export async function mount(root, { params }) {
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">#</h1></header><div class="topic-page">${loadingBlock()}</div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/moments"));
  const box = root.querySelector(".topic-page");
  try {
    const detail = await comments.topic({ id: params.id, size: 20 });
    if (!root.isConnected) return;
    root.querySelector(".top-title").textContent = t("topicOf", { title: detail.topic.title });
    const feeds = detail.feeds || [];
    setHTML(box, html`<div class="topic-head"><span class="topic-mark">${icon("hash")}</span><div><h2>${detail.topic.title}</h2>
        <p class="hint">${t("commentsOf", { n: detail.topic.commentsCount })} · ${t("moments")} ${detail.topic.feedsCount}</p></div></div>
      ${feeds.length ? html`<ul class="moment-list">${feeds.map((f) => momentCard(f))}</ul>` : ""}
      ${detail.comments.length ? html`<section class="section"><h2 class="section-title">${t("comments")}</h2><ul class="comment-list plain">${detail.comments.map(commentItem)}</ul></section>` : ""}
      ${!feeds.length && !detail.comments.length ? emptyBlock(t("noMoments")) : ""}`);
    const list = box.querySelector(".moment-list");
    if (list) bindMoments(list, feeds);
  } catch (error) {
    if (root.isConnected) setHTML(box, errorBlock(error));
  }
}
