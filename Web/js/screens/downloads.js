// Downloads: the songs kept on this device (they play with the network off), the storage they use, and
// the way to free it.
import { t, bytes } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, emptyBlock, confirmDialog, toast, artistNames } from "../ui.js";
import { frame, songs } from "../detail.js";
import * as downloads from "../downloads.js";

export async function mount(root) {
  frame(root, t("downloads"), "/mine");
  root.querySelector(".detail").classList.add("plain");
  let stop = () => {};
  const render = async () => {
    const entries = downloads.list();
    const use = await downloads.usage();
    if (!root.isConnected) return;
    setHTML(root.querySelector(".detail-info"), html`<div class="detail-text"><h1 class="detail-title">${t("downloads")}</h1>
      <p class="detail-line storage-line">${t("storageUsed", { used: bytes(use.downloads), quota: bytes(use.quota) })}</p>
      <div class="storage-bar" role="meter" aria-valuemin="0" aria-valuemax="${use.quota}" aria-valuenow="${use.usage}" aria-label="${t("storageUsed", { used: bytes(use.usage), quota: bytes(use.quota) })}"><span class="storage-fill"></span></div></div>`);
    root.querySelector(".storage-fill").style.width = `${use.quota ? Math.max(1, (use.usage / use.quota) * 100) : 0}%`;
    setHTML(root.querySelector(".detail-actions"), entries.length
      ? html`<button class="head-action free-storage" type="button">${icon("trash")}<span>${t("freeStorage")}</span></button>` : "");
    root.querySelector(".free-storage")?.addEventListener("click", async () => {
      if (!(await confirmDialog(t("confirmClear")))) return;
      await downloads.clearAll();
      toast(t("deleted"));
    });
    stop();
    if (!entries.length) {
      setHTML(root.querySelector(".detail-body"), emptyBlock(t("noDownloads")));
      stop = () => {};
      return;
    }
    const list = entries.map((entry) => entry.song);
    const size = new Map(entries.map((entry) => [entry.song.id, entry.bytes]));
    stop = songs(root, list, { sub: (song) => `${artistNames(song)} · ${bytes(size.get(song.id))}` });
  };
  const changed = () => { if (!downloads.progress.size) render(); };
  downloads.events.addEventListener("change", changed);
  await render();
  return () => {
    stop();
    downloads.events.removeEventListener("change", changed);
  };
}
