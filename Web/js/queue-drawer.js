// The queue drawer: the songs to play, the one playing marked, loop mode, drag (or Alt+arrow) to reorder,
// remove one or clear all. A bottom sheet on phones, a panel at the right on wide screens.
import { engine } from "./player.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { setHTML, html, artistNames, emptyBlock } from "./ui.js";

const modeIcon = { list: "loopList", single: "loopSingle", shuffle: "loopShuffle" };
const modeLabel = { list: "loopList", single: "loopSingle", shuffle: "loopShuffle" };
let open = null;

export function openQueue() {
  if (open) {
    open.close();
    return;
  }
  const dialog = document.createElement("dialog");
  dialog.className = "queue-drawer";
  dialog.setAttribute("aria-label", t("queue"));
  setHTML(dialog, html`<div class="queue-head">
      <h2 class="queue-title"></h2>
      <button class="text-btn queue-mode" type="button"></button>
      <button class="icon-btn queue-clear" type="button" aria-label="${t("clear")}" title="${t("clear")}">${icon("trash")}</button>
    </div>
    <ol class="queue-list"></ol>
    <button class="sheet-cancel queue-close" type="button">${t("close")}</button>`);
  document.body.append(dialog);
  open = dialog;
  const list = dialog.querySelector(".queue-list");
  const stop = new AbortController();

  const render = () => {
    const queue = engine.queue;
    dialog.querySelector(".queue-title").textContent = t("queueCount", { n: queue.length });
    const mode = dialog.querySelector(".queue-mode");
    setHTML(mode, html`${icon(modeIcon[queue.mode])}<span>${t(modeLabel[queue.mode])}</span>`);
    if (!queue.length) {
      setHTML(list, html`<li>${emptyBlock(t("emptyQueue"))}</li>`);
      return;
    }
    setHTML(list, queue.items.map((item, i) => {
      const current = item.key === queue.current;
      return html`<li class="queue-row${current ? " is-playing" : ""}" data-key="${item.key}" data-index="${i}">
        <button class="queue-main" type="button" data-action="play" ${current ? 'aria-current="true"' : ""}>
          ${current ? html`<span class="queue-now" aria-hidden="true">${icon("volume")}</span>` : ""}
          <span class="queue-song">${item.song.title}</span><span class="queue-artist"> - ${artistNames(item.song)}</span>
        </button>
        <button class="icon-btn queue-remove" type="button" data-action="remove" aria-label="${t("removeFromQueue")}: ${item.song.title}">${icon("close")}</button>
        <button class="icon-btn queue-handle" type="button" data-action="drag" aria-label="${t("dragToReorder")}: ${item.song.title}" title="${t("dragToReorder")}">${icon("grip")}</button>
      </li>`;
    }));
  };

  dialog.addEventListener("click", (event) => {
    if (event.target === dialog || event.target.closest(".queue-close")) return dialog.close();
    if (event.target.closest(".queue-mode")) return engine.cycleMode();
    if (event.target.closest(".queue-clear")) {
      engine.clear();
      return dialog.close();
    }
    const button = event.target.closest("[data-action]");
    const row = event.target.closest(".queue-row");
    if (!button || !row) return;
    const key = Number(row.dataset.key);
    if (button.dataset.action === "play") engine.playKey(key);
    else if (button.dataset.action === "remove") engine.remove(key);
  });

  // Keyboard reordering: Alt+Up/Down (or Up/Down on the handle).
  dialog.addEventListener("keydown", (event) => {
    const row = event.target.closest(".queue-row");
    if (!row || !(event.key === "ArrowUp" || event.key === "ArrowDown")) return;
    if (!event.altKey && !event.target.classList.contains("queue-handle")) return;
    event.preventDefault();
    const from = Number(row.dataset.index);
    const to = from + (event.key === "ArrowUp" ? -1 : 1);
    if (to < 0 || to >= engine.queue.length) return;
    engine.move(from, to);
    list.querySelector(`.queue-row[data-index="${to}"] .queue-handle`)?.focus();
  });

  // Dragging by the handle: the row follows the pointer, the others make room.
  list.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".queue-handle");
    if (!handle) return;
    event.preventDefault();
    const row = handle.closest(".queue-row");
    const rows = [...list.children];
    const from = rows.indexOf(row);
    const height = row.getBoundingClientRect().height;
    const startY = event.clientY;
    let to = from;
    handle.setPointerCapture(event.pointerId);
    row.classList.add("dragging");
    const move = (e) => {
      const dy = e.clientY - startY;
      to = Math.max(0, Math.min(rows.length - 1, from + Math.round(dy / height)));
      row.style.transform = `translateY(${dy}px)`;
      rows.forEach((other, i) => {
        if (other === row) return;
        const shift = from < to && i > from && i <= to ? -height : from > to && i < from && i >= to ? height : 0;
        other.style.transform = shift ? `translateY(${shift}px)` : "";
      });
    };
    const end = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", end);
      handle.removeEventListener("pointercancel", end);
      rows.forEach((other) => { other.style.transform = ""; });
      row.classList.remove("dragging");
      if (to !== from) engine.move(from, to);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
  });

  engine.addEventListener("queue", render, { signal: stop.signal });
  engine.addEventListener("song", render, { signal: stop.signal });
  engine.addEventListener("mode", render, { signal: stop.signal });
  dialog.addEventListener("close", () => {
    stop.abort();
    dialog.remove();
    open = null;
  });
  render();
  dialog.showModal();
  list.querySelector(".queue-row.is-playing")?.scrollIntoView({ block: "center" });
}
