// A person's page: avatar, nickname, gender, birthday, place, counts; follow, message, block; their sheets and
// moments.
import { accounts, follows, sheets, feeds } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { t, count } from "../i18n.js";
import { icon } from "../icons.js";
import { esc, img, toast, actionSheet, confirmDialog, errorBlock, emptyBlock, loadingBlock } from "../ui.js";
import { avatar, blockedIds, setBlocked } from "../social.js";
import { momentList } from "./moments.js";
import "../i18n-social.js";
import "../i18n-chat.js";

function sheetRow(sheet) {
  return `<li><a class="sheet-row" href="/sheet/${esc(sheet.id)}">${img(sheet, 52, "", "")}
    <span class="sheet-text"><span class="sheet-title">${esc(sheet.kind === "likes" ? t("iLike") : sheet.title)}</span>
    <span class="sheet-sub">${esc(t("tracks", { n: sheet.songsCount }))}</span></span>${icon("right", "chev")}</a></li>`;
}

function followButton(profile) {
  if (profile.following === null || profile.following === undefined) return "";
  return profile.following
    ? `<button type="button" class="pill-btn follow-btn on" aria-pressed="true">${esc(t("following"))}</button>`
    : `<button type="button" class="pill-btn primary follow-btn" aria-pressed="false">${icon("plus")}${esc(t("follow"))}</button>`;
}

export async function mount(root, { params }) {
  const id = params.id;
  const me = store.get().user;
  const mine = me?.userId === id;
  const tab = new URLSearchParams(location.search).get("tab") || "music";
  root.innerHTML = `<header class="top-bar user-bar"><button class="icon-btn back-btn" type="button" aria-label="${esc(t("back"))}">${icon("back")}</button>
      <h1 class="top-title"></h1>
      ${me && !mine ? `<button class="icon-btn user-more" type="button" aria-label="${esc(t("more2"))}">${icon("more")}</button>` : ""}
      ${mine ? `<a class="icon-btn" href="/mine/profile" aria-label="${esc(t("editProfile"))}">${icon("edit")}</a>` : ""}</header>
    <div class="user-page"><div class="user-head">${loadingBlock()}</div>
      <nav class="tabs user-tabs"><a class="tab-link${tab === "music" ? " active" : ""}" href="/user/${esc(id)}">${esc(t("createdSheets"))}</a>
        <a class="tab-link${tab === "moments" ? " active" : ""}" href="/user/${esc(id)}?tab=moments">${esc(t("userMoments"))}</a></nav>
      <div class="user-body"></div></div>`;
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
    head.innerHTML = `<div class="user-cover"></div><div class="user-card">
      <span class="user-avatar">${avatar(profile, 88)}</span>
      <h2 class="user-nick">${esc(profile.nickname)}${gender ? ` <span class="gender g${profile.gender}" aria-label="${esc(profile.gender === 10 ? t("male") : t("female"))}">${gender}</span>` : ""}</h2>
      <p class="user-counts"><a href="/user/${esc(id)}/following"><b>${esc(count(profile.followingsCount))}</b> ${esc(t("followingList"))}</a>
        <a href="/user/${esc(id)}/followers"><b class="followers-count">${esc(count(profile.followersCount))}</b> ${esc(t("followers"))}</a>
        <a href="/user/${esc(id)}/friends">${esc(t("friends"))}</a></p>
      ${[place, profile.birthday].filter(Boolean).length ? `<p class="user-meta">${[place, profile.birthday].filter(Boolean).map(esc).join(" · ")}</p>` : ""}
      ${profile.description ? `<p class="user-bio">${esc(profile.description)}</p>` : ""}
      <div class="user-actions">${blocked ? `<p class="blocked-note">${esc(t("blockedNote"))}</p><button type="button" class="pill-btn unblock-btn">${esc(t("unblock"))}</button>`
        : mine ? `<a class="pill-btn" href="/mine/profile">${esc(t("editProfile"))}</a>`
        : `<div class="user-action-row">${followButton(profile)}${me ? `<a class="pill-btn message-btn" href="/messages/user/${esc(id)}">${icon("mail")}${esc(t("sendMessage"))}</a>` : ""}</div>`}</div></div>`;
  };
  const drawBody = async () => {
    list?.stop();
    if (blocked) { body.innerHTML = emptyBlock(t("blockedNote")); return; }
    if (tab === "moments") {
      list = momentList(body, (cursor) => feeds.list({ userId: id, cursor, size: 15 }));
      return;
    }
    body.innerHTML = loadingBlock();
    try {
      const [created, collected] = await Promise.all([sheets.created({ id, size: 50 }), sheets.collected({ id, size: 50 })]);
      if (!root.isConnected) return;
      body.innerHTML = `<section class="section card-section"><div class="section-head"><h2>${esc(t("createdSheets"))} <span class="count">${created.total}</span></h2></div>
          ${created.data.length ? `<ul class="sheet-rows">${created.data.map(sheetRow).join("")}</ul>` : emptyBlock(t("emptySheets"))}</section>
        ${collected.data.length ? `<section class="section card-section"><div class="section-head"><h2>${esc(t("collectedSheets"))} <span class="count">${collected.total}</span></h2></div>
          <ul class="sheet-rows">${collected.data.map(sheetRow).join("")}</ul></section>` : ""}`;
    } catch (error) {
      if (root.isConnected) body.innerHTML = errorBlock(error);
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
    head.innerHTML = errorBlock(error);
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
