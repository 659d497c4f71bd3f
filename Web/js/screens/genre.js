// A genre: its songs, a page at a time as the list scrolls.
import { catalog } from "../api.js";
import { t } from "../i18n.js";
import { addHTML, html, songRow } from "../ui.js";
import { frame, head, songs, failed } from "../detail.js";

const PAGE = 50;

export async function mount(root, { params, query }) {
  frame(root, t("genres"));
  let stop = () => {};
  let observer = null;
  const name = query.get("name") || "";
  const load = async () => {
    let page;
    try {
      page = await catalog.songs({ genre: params.id, size: PAGE, sort: "plays" });
    } catch (error) {
      if (root.isConnected) failed(root, error, load);
      return;
    }
    if (!root.isConnected) return;
    const list = page.data;
    head(root, { thing: list[0], title: name || t("genres"), lines: [html`<span class="detail-desc">${t("tracks", { n: page.total })}</span>`] });
    stop();
    stop = songs(root, list, { total: page.total });
    let next = page.next;
    const ol = root.querySelector(".song-list");
    if (!ol || !next) return;
    const sentinel = document.createElement("div");
    sentinel.className = "sentinel";
    ol.after(sentinel);
    observer = new IntersectionObserver(async (entries) => {
      if (!entries.some((e) => e.isIntersecting) || !next) return;
      const more = await catalog.songs({ genre: params.id, size: PAGE, sort: "plays", page: next }).catch(() => null);
      if (!more || !root.isConnected) return;
      next = more.next;
      const start = list.length;
      list.push(...more.data);
      addHTML(ol, more.data.map((song, i) => songRow(song, start + i)), "beforeend");
      if (!next) observer.disconnect();
    });
    observer.observe(sentinel);
  };
  await load();
  return () => {
    stop();
    observer?.disconnect();
  };
}
