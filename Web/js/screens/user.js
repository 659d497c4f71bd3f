// A person's page: avatar, nickname, gender, birthday, place, counts; follow, message, block; their sheets and
// moments.
import { accounts, follows, sheets, feeds } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, img, toast, actionSheet, confirmDialog, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { avatar, blockedIds, setBlocked } from "../social.js";
import { momentList } from "./moments.js";
import "../i18n-social.js";
import "../i18n-chat.js";

function sheetRow(sheet) {
  return html`<li><a class="sheet-row" href="/sheet/${sheet.id}">${img(sheet, 52, "", "")}
    <span class="sheet-text"><span class="sheet-title">${sheet.kind === "likes" ? t("iLike") : sheet.title}</span>
    <span class="sheet-sub">${t("tracks", { n: sheet.songsCount })}</span></span>${icon("right", "chev")}</a></li>`;
}

function followButton(profile) {
  if (profile.following === null || profile.following === undefined) return "";
  return profile.following
    ? html`<button type="button" class="pill-btn follow-btn on" aria-pressed="true">${t("following")}</button>`
    : html`<button type="button" class="pill-btn primary follow-btn" aria-pressed="false">${icon("plus")}${t("follow")}</button>`;
}

export async function mount(root, { params }) {
  const id = params.id;
  const me = store.get().user;
  const mine = me?.userId === id;
  const tab = new URLSearchParams(location.search).get("tab") || "music";
  setHTML(root, html`<header class="top-bar user-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title"></h1>
      ${me && !mine ? html`<button class="icon-btn user-more" type="button" aria-label="${t("more2")}">${icon("more")}</button>` : ""}
      ${mine ? html`<a class="icon-btn" href="/mine/profile" aria-label="${t("editProfile")}">${icon("edit")}</a>` : ""}</header>
    <div class="user-page"><div class="user-head">${loadingBlock()}</div>
      <nav class="tabs user-tabs"><a class="tab-link${tab === "music" ? " active" : ""}" href="/user/${id}">${t("createdSheets")}</a>
        <a class="tab-link${tab === "moments" ? " active" : ""}" href="/user/${id}?tab=moments">${t("userMoments")}</a></nav>
      <div class="user-body"></div></div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/"));
  // The bar over the cover turns solid once the cover has scrolled away.
  const bar = root.querySelector(".user-bar");
  const onScroll = () => bar.classList.toggle("solid", scrollY > 100);
  addEventListener("scroll", onScroll, { passive: true });
  const head = root.querySelector(".user-head");
  const body = root.querySelector(".user-body");
  let profile = null;
  let blocked = false;
  let list = null;

  const drawHead = () => {
    const place = [profile.province, profile.city].filter(Boolean).join(" ");
    const gender = profile.gender === 10 ? "♂" : profile.gender === 20 ? "♀" : "";
    root.querySelector(".top-title").textContent = profile.nickname;
    setHTML(head, html`<div class="user-cover"></div><div class="user-card">
      <span class="user-avatar">${avatar(profile, 88)}</span>
      <h2 class="user-nick">${profile.nickname}${gender ? html` <span class="gender g${profile.gender}" aria-label="${profile.gender === 10 ? t("male") : t("female")}">${gender}</span>` : ""}</h2>
      <p class="user-counts"><a href="/user/${id}/following"><b>${count(profile.followingsCount)}</b> ${t("followingList")}</a>
        <a href="/user/${id}/followers"><b class="followers-count">${count(profile.followersCount)}</b> ${t("followers")}</a>
        <a href="/user/${id}/friends">${t("friends")}</a></p>
      ${[place, profile.birthday].filter(Boolean).length ? html`<p class="user-meta">${[place, profile.birthday].filter(Boolean).join(" · ")}</p>` : ""}
      ${profile.description ? html`<p class="user-bio">${profile.description}</p>` : ""}
      <div class="user-actions">${blocked ? html`<p class="blocked-note">${t("blockedNote")}</p><button type="button" class="pill-btn unblock-btn">${t("unblock")}</button>`
        : mine ? html`<a class="pill-btn" href="/mine/profile">${t("editProfile")}</a>`
        : html`<div class="user-action-row">${followButton(profile)}${me ? html`<a class="pill-btn message-btn" href="/messages/user/${id}">${icon("mail")}${t("sendMessage")}</a>` : ""}</div>`}</div></div>`);
  };
  const drawBody = async () => {
    list?.stop();
    if (blocked) { setHTML(body, emptyBlock(t("blockedNote"))); return; }
    if (tab === "moments") {
      list = momentList(body, (cursor) => feeds.list({ userId: id, cursor, size: 15 }));
      return;
    }
    setHTML(body, loadingBlock());
    try {
      const [created, collected] = await Promise.all([sheets.created({ id, size: 50 }), sheets.collected({ id, size: 50 })]);
      if (!root.isConnected) return;
      setHTML(body, html`<section class="section card-section"><div class="section-head"><h2>${t("createdSheets")} <span class="count">${created.total}</span></h2></div>
          ${created.data.length ? html`<ul class="sheet-rows">${created.data.map(sheetRow)}</ul>` : emptyBlock(t("emptySheets"))}</section>
        ${collected.data.length ? html`<section class="section card-section"><div class="section-head"><h2>${t("collectedSheets")} <span class="count">${collected.total}</span></h2></div>
          <ul class="sheet-rows">${collected.data.map(sheetRow)}</ul></section>` : ""}`);
    } catch (error) {
      if (root.isConnected) setHTML(body, errorBlock(error));
    }
  };

  try {
    const [p, ids] = await Promise.all([accounts.profile({ id }), me && !mine ? blockedIds() : new Set()]);
    if (!root.isConnected) return;
    profile = p;
    blocked = ids.has(id);
    drawHead();
    drawBody();
  } catch (error) {
    if (!root.isConnected) return;
    setHTML(head, errorBlock(error));
    head.querySelector("[data-action=retry]")?.addEventListener("click", () => mount(root, { params }));
    return () => removeEventListener("scroll", onScroll);
  }

  const toggleBlock = async (on) => {
    if (on && !(await confirmDialog(t("confirmBlock")))) return;
    try {
      if (on) await follows.block({}, { userId: id });
      else await follows.unblock({ id });
      await setBlocked(id, on);
      blocked = on;
      if (on) profile.following = false;
      toast(on ? t("block") : t("unblock"));
      drawHead();
      drawBody();
    } catch (error) {
      toast(error.message);
    }
  };
  root.addEventListener("click", async (event) => {
    if (event.target.closest(".follow-btn")) {
      if (!me) { navigate("/login"); return; }
      try {
        if (profile.following) {
          await follows.unfollow({ id });
          profile.following = false;
          profile.followersCount = Math.max(0, profile.followersCount - 1);
        } else {
          const answer = await follows.follow({}, { userId: id });
          profile.following = true;
          profile.followersCount = answer?.followersCount ?? profile.followersCount + 1;
        }
        drawHead();
      } catch (error) {
        toast(error.message);
      }
    } else if (event.target.closest(".unblock-btn")) {
      toggleBlock(false);
    } else if (event.target.closest(".user-more")) {
      const choice = await actionSheet({ title: profile.nickname, items: [
        blocked ? { label: t("unblock"), value: "unblock", icon: "user" } : { label: t("block"), value: "block", icon: "close" },
      ] });
      if (choice) toggleBlock(choice === "block");
    }
  });
  return () => {
    list?.stop();
    removeEventListener("scroll", onScroll);
  };
}
