// A video: the HTML5 player with its own control bar (play, seek, time, mute, full screen), the music
// paused while it plays, and the video's own comments below.
import { videos } from "../api.js";
import * as store from "../store.js";
import { back, navigate } from "../router.js";
import { engine } from "../player.js";
import { t, count, duration } from "../i18n.js";
import { icon } from "../icons.js";
import { setHTML, html, toast, errorBlock, loadingBlock } from "../ui.js";
import { media } from "../media.js";
import { commentSection } from "./comments.js";
import "../i18n-social.js";

export async function mount(root, { params }) {
  setHTML(root, html`<header class="top-bar video-bar"><button class="icon-btn back-btn" type="button" aria-label="${t("back")}">${icon("back")}</button>
      <h1 class="top-title">${t("videos")}</h1></header><div class="video-page">${loadingBlock()}</div>`);
  root.querySelector(".back-btn").addEventListener("click", () => back("/videos"));
  const box = root.querySelector(".video-page");
  let video;
  try {
    video = await videos.detail({ id: params.id });
  } catch (error) {
    if (root.isConnected) setHTML(box, errorBlock(error));
    return;
  }
  if (!root.isConnected) return;
  root.querySelector(".top-title").textContent = video.title;
  const canPlay = document.createElement("video").canPlayType(`video/${video.format === "mkv" ? "x-matroska" : video.format}`);
  const src = media(canPlay ? video.uri : video.compatibleUri);
  setHTML(box, html`<div class="player-box">
      <video class="video-el" src="${src}" ${video.icon ? html`poster="${media(video.icon)}"` : ""} playsinline preload="metadata"></video>
      <button type="button" class="video-big-play" aria-label="${t("play")}">${icon("play")}</button>
      <div class="video-controls">
        <button type="button" class="icon-btn v-toggle" aria-label="${t("play")}">${icon("play")}</button>
        <span class="v-time">0:00</span>
        <input class="range v-seek" type="range" min="0" max="${Math.max(1, Math.round(video.duration / 1000))}" step="0.1" value="0" aria-label="${t("play")}">
        <span class="v-total">${duration(video.duration)}</span>
        <button type="button" class="icon-btn v-mute" aria-label="${t("mute2")}">${icon("volume")}</button>
        <button type="button" class="icon-btn v-full" aria-label="${t("fullscreen")}">${icon("fullscreen")}</button>
      </div></div>
    <div class="video-info"><h2 class="video-title">${video.title}</h2>
      <p class="hint">${video.singer?.name ?? ""} · ${t("views", { n: count(video.clicksCount) })}</p>
      <div class="video-actions"><button type="button" class="pill-btn v-like${video.liked ? " on" : ""}" aria-pressed="${Boolean(video.liked)}">${icon(video.liked ? "heartFill" : "heart")}<span>${count(video.likesCount)}</span></button>
        <a class="pill-btn" href="/comments/video/${video.id}">${icon("comment")}${t("comments")}</a></div></div>
    <section class="video-comments"></section><div class="composer-dock"></div>`);
  const el = box.querySelector(".video-el");
  const player = box.querySelector(".player-box");
  const seek = box.querySelector(".v-seek");
  const setIcon = () => {
    const playing = !el.paused;
    setHTML(box.querySelector(".v-toggle"), icon(playing ? "pause" : "play"));
    box.querySelector(".v-toggle").setAttribute("aria-label", playing ? t("pause") : t("play"));
    player.classList.toggle("playing", playing);
  };
  const toggle = () => {
    if (el.paused) {
      engine.pause?.();
      el.play().catch((e) => toast(e.message));
    } else el.pause();
  };
  box.querySelector(".video-big-play").addEventListener("click", toggle);
  box.querySelector(".v-toggle").addEventListener("click", toggle);
  el.addEventListener("click", toggle);
  el.addEventListener("play", setIcon);
  el.addEventListener("pause", setIcon);
  el.addEventListener("timeupdate", () => {
    box.querySelector(".v-time").textContent = duration(el.currentTime, true);
    seek.value = String(el.currentTime);
    seek.style.setProperty("--fill", `${(el.currentTime / (Number(seek.max) || 1)) * 100}%`);
  });
  seek.addEventListener("input", () => { el.currentTime = Number(seek.value); });
  box.querySelector(".v-mute").addEventListener("click", (e) => {
    el.muted = !el.muted;
    setHTML(e.currentTarget, icon(el.muted ? "mute" : "volume"));
  });
  box.querySelector(".v-full").addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else player.requestFullscreen?.().catch(() => {});
  });
  box.querySelector(".v-like").addEventListener("click", async (e) => {
    if (!store.get().user) { navigate("/login"); return; }
    const button = e.currentTarget;
    try {
      if (video.liked) { await videos.unlike({ id: video.id }); video.likesCount--; }
      else { await videos.like({ id: video.id }); video.likesCount++; }
      video.liked = !video.liked;
      button.classList.toggle("on", video.liked);
      button.setAttribute("aria-pressed", String(video.liked));
      setHTML(button, html`${icon(video.liked ? "heartFill" : "heart")}<span>${count(video.likesCount)}</span>`);
    } catch (error) {
      toast(error.message);
    }
  });
  const comments = box.querySelector(".video-comments");
  commentSection(comments, box.querySelector(".composer-dock"), { videoId: video.id });
  return () => { el.pause(); el.removeAttribute("src"); el.load(); };
}
