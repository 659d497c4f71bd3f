// The words of the podcast screens (issue 30); loaded with them.
import { extend } from "./i18n.js";

const zh = {
  continueListening: "继续收听", mySubscriptions: "我的订阅", allPodcasts: "全部播客", noPodcasts: "还没有播客",
  noSubscriptions: "还没有订阅播客", subscribe: "订阅", subscribed: "已订阅", episodesCount: "{n} 集",
  newest: "最新", oldest: "最早", sortEpisodes: "排序", finished: "已播完", playedPercent: "已播 {n}%",
  pageOf: "第 {p} / {n} 页", prevPage: "上一页", nextPage: "下一页", episode: "节目", playEpisode: "播放",
  resumeAt: "从 {t} 继续", notes: "节目简介", chapters: "章节", transcript: "文字稿", showTranscript: "显示文字稿",
  back15: "后退 15 秒", forward15: "前进 15 秒", speed: "倍速", sleepTimer: "定时关闭", sleepOff: "不开启",
  sleepMinutes: "{n} 分钟", sleepEnd: "播完本集", sleepsAt: "{t} 后停止", sleepsAtEnd: "本集播完后停止",
  noEpisodes: "还没有节目", podcastSearch: "搜索播客", episodeNumber: "第 {n} 集", listenNow: "正在收听",
  allKinds: "全部", audiobooks: "有声书", noBooks: "还没有有声书", narratedBy: "演播：{n}", seriesPart: "{s} · 第 {n} 部",
  partsCount: "{n} 个部分", podcastKinds: "类型",
  likeEpisode: "赞", likedEpisode: "已赞", likeEpisodeN: "赞（{n}）", shareToMoment: "分享到动态",
  episodeComments: "评论",
};
const en = {
  continueListening: "Continue listening", mySubscriptions: "My subscriptions", allPodcasts: "All podcasts",
  noPodcasts: "No podcasts yet", noSubscriptions: "No subscriptions yet", subscribe: "Subscribe",
  subscribed: "Subscribed", episodesCount: "{n} episodes", newest: "Newest", oldest: "Oldest",
  sortEpisodes: "Order", finished: "Played", playedPercent: "{n}% played", pageOf: "Page {p} of {n}",
  prevPage: "Previous page", nextPage: "Next page", episode: "Episode", playEpisode: "Play", resumeAt: "Resume at {t}",
  notes: "Show notes", chapters: "Chapters", transcript: "Transcript", showTranscript: "Show the transcript",
  back15: "Back 15 seconds", forward15: "Forward 15 seconds", speed: "Speed", sleepTimer: "Sleep timer",
  sleepOff: "Off", sleepMinutes: "{n} minutes", sleepEnd: "End of episode", sleepsAt: "Stops in {t}",
  sleepsAtEnd: "Stops at the end of this episode", noEpisodes: "No episodes yet", podcastSearch: "Search podcasts",
  episodeNumber: "Episode {n}", listenNow: "Now playing",
  allKinds: "All", audiobooks: "Audiobooks", noBooks: "No audiobooks yet", narratedBy: "Read by {n}",
  seriesPart: "{s}, book {n}", partsCount: "{n} parts", podcastKinds: "Kind",
  likeEpisode: "Like", likedEpisode: "Liked", likeEpisodeN: "Like ({n})", shareToMoment: "Share to moments",
  episodeComments: "Comments",
};

extend({ zh, en });
