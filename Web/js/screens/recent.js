// Recently played: one's play history from the server.
import { sheets } from "../api.js";
import * as store from "../store.js";
import { back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, emptyBlock, artistNames } from "../ui.js";
import { frame, songs, failed } from "../detail.js";

export async function mount(root) {
  if (!store.get().user) {
    setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("recentPlays")}</h1></header>${emptyBlock(t("signInToSee"))}
      <p class="center"><a class="pill-btn primary" href="/login?next=/mine/recent">${t("signIn")}</a></p>`);
    root.querySelector(".back-btn").addEventListener("click", () => back("/mine"));
    return;
  }
  frame(root, t("recentPlays"), "/mine");
  root.querySelector(".detail").classList.add("plain");
  setHTML(root.querySelector(".detail-info"), html`<div class="detail-text"><h1 class="detail-title">${t("recentPlays")}</h1></div>`);
  let stop = () => {};
  const load = async () => {
    try {
      const page = await sheets.history({ size: 100 });
      if (!root.isConnected) return;
      const list = page.data.map((entry) => entry.song);
      const plays = new Map(page.data.map((entry) => [entry.song.id, entry.playsCount]));
      if (!list.length) {
        setHTML(root.querySelector(".detail-body"), emptyBlock(t("emptyHistory")));
        return;
      }
      stop = songs(root, list, { sub: (song) => `${artistNames(song)} · ${t("plays", { n: plays.get(song.id) })}` });
    } catch (error) {
      if (root.isConnected) failed(root, error, load);
    }
  };
  await load();
  return () => stop();
}
