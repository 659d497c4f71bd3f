// A sheet (playlist): its header with cover, owner and counts, collect, play all, and its songs; the
// owner can take songs out. "I like" is a sheet too.
import { sheets } from "../api.js";
import * as store from "../store.js";
import { navigate } from "../router.js";
import { t, count } from "../i18n.js";
import { html, toast } from "../ui.js";
import { media } from "../media.js";
import { requireSignIn, addToSheet } from "../actions.js";
import { frame, head, songs, failed, action } from "../detail.js";

export async function mount(root, { params }) {
  frame(root, t("sheets"));
  let stop = () => {};
  const load = async () => {
    let sheet;
    try {
      sheet = await sheets.detail({ id: params.id, songs: 500 });
    } catch (error) {
      if (root.isConnected) failed(root, error, load);
      return;
    }
    if (!root.isConnected) return;
    const me = store.get().user;
    const mine = me && sheet.user?.id === me.userId;
    const isLikes = sheet.kind === "likes";
    const title = isLikes && mine ? t("iLike") : sheet.title;
    const owner = html`<span class="owner">${sheet.user?.icon ? html`<img class="avatar" src="${media(sheet.user.icon, 64)}" alt="" width="24" height="24">` : ""}${sheet.user?.nickname ?? ""}</span>`;
    const render = () => head(root, {
      thing: sheet,
      title,
      lines: [owner, sheet.detail ? html`<span class="detail-desc">${sheet.detail}</span>` : ""].filter(Boolean),
      actions: [
        mine ? "" : action("collect", sheet.collected ? "done" : "plus", sheet.collected ? count(sheet.collectsCount) : t("collect"), { on: !!sheet.collected }),
        action("addAll", "addList", t("addToSheet")),
        action("comments", "comment", sheet.commentsCount ? count(sheet.commentsCount) : t("comments")),
      ],
    });
    render();
    root.querySelector(".detail-actions").onclick = async (event) => {
      const button = event.target.closest("[data-head]");
      if (!button) return;
      if (button.dataset.head === "addAll") return addToSheet(sheet.songs ?? []);
      if (button.dataset.head === "comments") return navigate(`/comments/sheet/${sheet.id}`);
      if (button.dataset.head !== "collect" || !requireSignIn()) return;
      try {
        if (sheet.collected) {
          await sheets.uncollect({ id: sheet.id });
          sheet.collected = false;
          sheet.collectsCount = Math.max(0, sheet.collectsCount - 1);
          toast(t("uncollect"));
        } else {
          const updated = await sheets.collect({}, { sheetId: sheet.id });
          sheet.collected = true;
          sheet.collectsCount = updated?.collectsCount ?? sheet.collectsCount + 1;
          toast(t("collected"));
        }
        render();
      } catch (error) {
        toast(error.message);
      }
    };
    stop();
    const list = sheet.songs ?? [];
    stop = songs(root, list, {
      total: sheet.songsCount,
      extraFor: mine ? () => [{ label: t("removeFromSheet"), icon: "trash", value: "removeFromSheet" }] : undefined,
    });
    root.querySelector(".song-list")?.addEventListener("song-extra", async (event) => {
      const { song, value } = event.detail;
      if (value !== "removeFromSheet") return;
      try {
        if (isLikes) await sheets.unlikeSong({ id: song.id });
        else await sheets.removeSong({ id: sheet.id, songId: song.id });
        toast(t("deleted"));
        load();
      } catch (error) {
        toast(error.message);
      }
    });
  };
  await load();
  return () => stop();
}
