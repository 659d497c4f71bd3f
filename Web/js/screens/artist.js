// An artist: songs and albums.
import { catalog } from "../api.js";
import { t } from "../i18n.js";
import { addHTML, html } from "../ui.js";
import { frame, head, songs, failed } from "../detail.js";
import { albumCard } from "./home.js";

export async function mount(root, { params }) {
  frame(root, t("artist"));
  let stop = () => {};
  const load = async () => {
    let artist;
    try {
      artist = await catalog.artist({ id: params.id });
    } catch (error) {
      if (root.isConnected) failed(root, error, load);
      return;
    }
    if (!root.isConnected) return;
    const albums = artist.albums ?? [];
    head(root, {
      thing: artist.icon ? artist : albums[0] ?? artist,
      title: artist.name,
      round: true,
      lines: [html`<span class="detail-desc">${t("tracks", { n: artist.songsCount })} · ${t("albumsCount", { n: artist.albumsCount })}</span>`],
    });
    stop();
    stop = songs(root, artist.songs ?? [], { sub: (song) => song.album?.title ?? "" });
    if (albums.length) {
      addHTML(root.querySelector(".detail-body"), html`<section class="section"><div class="section-head"><h2>${t("albums")}</h2></div>
        <div class="card-grid albums">${albums.map(albumCard)}</div></section>`, "beforeend");
    }
  };
  await load();
  return () => stop();
}
