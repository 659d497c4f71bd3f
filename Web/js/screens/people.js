// Following, followers and friends of a person, with follow buttons; and one's blocked people.
import { follows } from "../api.js";
import * as store from "../store.js";
import { back } from "../router.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { replaceWithHTML, setHTML, html, toast, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { userRow, setBlocked } from "../social.js";
import "../i18n-social.js";

export async function mount(root, { params }) {
  const list = params.list || "blocks";
  const titles = { following: t("followingList"), followers: t("followers"), friends: t("friends"), blocks: t("blocklist") };
  if (!titles[list]) return;
  setHTML(root, html`<header class="top-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${titles[list]}</h1></header><div class="people">${loadingBlock()}</div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back(params.id ? `/user/${params.id}` : "/settings"));
  const box = root.querySelector(".people");
  const me = store.get().user;
  const load = list === "blocks" ? () => follows.blocks({ size: 100 }) : () => follows[list]({ id: params.id, size: 100 });
  let users = [];
  const right = (u) => list === "blocks" ? html`<button type="button" class="pill-btn small unblock" data-id="${u.id}">${t("unblock")}</button>`
    : me && u.id !== me.userId && u.following !== null && u.following !== undefined
      ? html`<button type="button" class="pill-btn small follow${u.following ? " on" : " primary"}" data-id="${u.id}">${u.following ? t("following") : t("follow")}</button>` : "";
  try {
    users = (await load()).data;
    if (!root.isConnected) return;
    setHTML(box, users.length ? html`<ul class="user-list">${users.map((u) => userRow(u, right(u)))}</ul>` : emptyBlock(t("noPeople")));
  } catch (error) {
    if (root.isConnected) setHTML(box, errorBlock(error));
    return;
  }
  box.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-id]");
    if (!button) return;
    const user = users.find((u) => u.id === button.dataset.id);
    try {
      if (button.classList.contains("unblock")) {
        await follows.unblock({ id: user.id });
        await setBlocked(user.id, false);
        button.closest(".user-row").remove();
      } else if (user.following) {
        await follows.unfollow({ id: user.id });
        user.following = false;
      } else {
        await follows.follow({}, { userId: user.id });
        user.following = true;
      }
      if (!button.classList.contains("unblock")) replaceWithHTML(button, right(user));
    } catch (error) {
      toast(error.message);
    }
  });
}
