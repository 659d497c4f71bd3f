// An album: cover, artist and year, play all, and its songs in disc and track order.
import { catalog } from "../api.js";
import { t, duration } from "../i18n.js";
import { html } from "../ui.js";
import { frame, head, songs, failed, action } from "../detail.js";
import { addToSheet } from "../actions.js";

export async function mount(root, { params }) {
  frame(root, t("album"));
  let stop = () => {};
  const load = async () => {
    let album;
    try {
      album = await catalog.album({ id: params.id });
    } catch (error) {
      if (root.isConnected) failed(root, error, load);
      return;
    }
    if (!root.isConnected) return;
    const artist = album.artist ? html`<a class="head-link" href="/artist/${album.artist.id}">${album.artist.name}</a>` : "";
    head(root, {
      thing: album,
      title: album.title,
      lines: [artist, html`<span class="detail-desc">${[album.year ? t("year", { y: album.year }) : "", t("tracks", { n: album.songsCount }), duration(album.duration)].filter(Boolean).join(" · ")}</span>`],
      actions: action("addAll", "addList", t("addToSheet")),
    });
    root.querySelector(".detail-actions").onclick = (event) => {
      if (event.target.closest('[data-head="addAll"]')) addToSheet(album.songs ?? []);
    };
    stop();
    stop = songs(root, album.songs ?? [], { sub: (song) => (song.artists || []).map((a) => a.name).join(" / ") });
  };
  await load();
  return () => stop();
}
