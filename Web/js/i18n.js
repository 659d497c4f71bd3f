// Chinese and English: the browser's language unless the person picked one.
import { get } from "./store.js";

const zh = {
  appName: "云音乐", discover: "发现", search: "搜索", mine: "我的", settings: "设置", skip: "跳到内容",
  searchPlaceholder: "搜索歌曲、歌手、专辑", cancel: "取消", clear: "清空", history: "搜索历史",
  suggestFor: "搜索“{q}”", songs: "单曲", albums: "专辑", artists: "歌手", sheets: "歌单", genres: "分类",
  noResults: "没有找到“{q}”相关的结果", hotSheets: "热门歌单", newSongs: "新歌速递", newAlbums: "新碟上架",
  recentPlays: "最近播放", more: "更多", playAll: "播放全部", songsCount: "共{n}首", hotSongs: "热歌榜",
  dailyPick: "每日推荐", loading: "加载中…", loadFailed: "加载失败", retry: "重试", offline: "网络已断开，可以播放已下载的歌曲",
  emptySheets: "还没有公开的歌单", play: "播放", pause: "暂停", next: "下一首", previous: "上一首",
  playNext: "下一首播放", addToQueue: "添加到播放列表", addToSheet: "收藏到歌单", like: "喜欢", unlike: "取消喜欢",
  download: "下载", downloaded: "已下载", downloading: "下载中 {p}", removeDownload: "删除下载",
  queue: "播放列表", queueCount: "当前播放 ({n})", removeFromQueue: "从播放列表删除", dragToReorder: "拖动排序",
  loopList: "列表循环", loopSingle: "单曲循环", loopShuffle: "随机播放", nowPlaying: "正在播放",
  noLyric: "暂无歌词", showLyrics: "查看歌词", lyricLoading: "歌词加载中…", pureMusic: "纯音乐，请欣赏", back: "返回",
  desktopLyrics: "桌面歌词", volume: "音量", comments: "评论", by: "by {name}", album: "专辑", artist: "歌手",
  signIn: "登录", signUp: "注册", signOut: "退出登录", password: "密码", code: "验证码",
  passwordSignIn: "密码登录", codeSignIn: "验证码登录", account: "手机号或邮箱", nickname: "昵称",
  sendCode: "获取验证码", resend: "{s}秒后重发", codeSent: "验证码已发送",
  outboxHint: "服务器没有配置短信或邮件时，验证码在管理员的发件箱里：{url}",
  signUpCodeHint: "选填，服务器要求时填写", passwordRule: "密码 8-128 位", welcome: "欢迎，{name}",
  signInFirst: "请先登录", signInToSee: "登录后查看你的音乐", mySheets: "创建的歌单", collectedSheets: "收藏的歌单",
  iLike: "我喜欢的音乐", shop: "商城", homeContinueListening: "继续收听", homeNewEpisodes: "订阅更新", downloads: "下载管理", newSheet: "新建歌单", sheetTitle: "歌单标题", create: "创建",
  created: "已创建", addedToSheet: "已收藏到歌单", addedToQueue: "已添加到播放列表", willPlayNext: "将在下一首播放",
  liked: "已添加到我喜欢的音乐", unliked: "已取消喜欢", collect: "收藏", collected: "已收藏", uncollect: "取消收藏",
  storageUsed: "已用 {used}，可用 {quota}", freeStorage: "清空下载", noDownloads: "还没有下载的歌曲",
  downloadDone: "下载完成：{title}", downloadFailed: "下载失败：{title}", deleted: "已删除",
  theme: "主题", themeSystem: "跟随系统", themeLight: "浅色", themeDark: "深色", language: "语言", langAuto: "跟随浏览器",
  lyricSize: "歌词字号", lyricColor: "歌词颜色", close: "关闭", smaller: "缩小", larger: "放大",
  emptyQueue: "播放列表为空", emptyHistory: "还没有播放记录", cannotPlay: "无法播放：{title}",
  shortcuts: "快捷键：空格 播放/暂停，← → 快退/快进，Ctrl+← → 上一首/下一首，Ctrl+↑ ↓ 音量，/ 搜索",
  plays: "{n}次播放", albumsCount: "{n}张专辑", tracks: "{n}首", year: "{y}年", unknownArtist: "未知歌手", genreSongs: "{name} 的歌曲",
  noMore: "没有更多了", removeFromSheet: "从歌单中删除", confirmClear: "确定清空下载的歌曲吗？", ok: "确定",
  serverOffline: "无法连接服务器", sheetOf: "{name}创建的歌单", collectsCount: "{n}收藏", allSheets: "歌单广场",
  allAlbums: "全部专辑", allArtists: "全部歌手", allGenres: "音乐分类", mostPlayed: "热门单曲", more2: "更多操作",
  shuffleOn: "随机播放", openPlayer: "打开播放页", hideLyrics: "关闭桌面歌词", lyricsOn: "桌面歌词已打开",
};

const en = {
  appName: "CloudMusic", discover: "Discover", search: "Search", mine: "My Music", settings: "Settings",
  skip: "Skip to content", searchPlaceholder: "Search songs, artists, albums", cancel: "Cancel", clear: "Clear",
  history: "Recent searches", suggestFor: "Search “{q}”", songs: "Songs", albums: "Albums", artists: "Artists",
  sheets: "Playlists", genres: "Genres", noResults: "Nothing found for “{q}”", hotSheets: "Popular playlists",
  newSongs: "New songs", newAlbums: "New albums", recentPlays: "Recently played", more: "More",
  playAll: "Play all", songsCount: "{n} songs", hotSongs: "Top songs", dailyPick: "For you", loading: "Loading…",
  loadFailed: "Could not load", retry: "Retry", offline: "You are offline: downloaded songs still play",
  emptySheets: "No public playlists yet", play: "Play", pause: "Pause", next: "Next", previous: "Previous",
  playNext: "Play next", addToQueue: "Add to queue", addToSheet: "Add to playlist", like: "Like", unlike: "Unlike",
  download: "Download", downloaded: "Downloaded", downloading: "Downloading {p}", removeDownload: "Delete download",
  queue: "Queue", queueCount: "Playing queue ({n})", removeFromQueue: "Remove from queue",
  dragToReorder: "Drag to reorder", loopList: "Repeat all", loopSingle: "Repeat one", loopShuffle: "Shuffle",
  nowPlaying: "Now playing", noLyric: "No lyrics", showLyrics: "Show lyrics", lyricLoading: "Loading lyrics…", pureMusic: "Instrumental",
  back: "Back", desktopLyrics: "Desktop lyrics", volume: "Volume", comments: "Comments", by: "by {name}",
  album: "Album", artist: "Artist", signIn: "Sign in", signUp: "Sign up", signOut: "Sign out", password: "Password",
  code: "Code", passwordSignIn: "Password", codeSignIn: "Code", account: "Phone or email", nickname: "Nickname",
  sendCode: "Send code", resend: "Resend in {s}s", codeSent: "Code sent",
  outboxHint: "On a server without SMS or email set up, the code waits in the administrator's outbox: {url}",
  signUpCodeHint: "If the server asks for one", passwordRule: "8 to 128 characters",
  welcome: "Welcome, {name}", signInFirst: "Please sign in first", signInToSee: "Sign in to see your music",
  mySheets: "My playlists", collectedSheets: "Collected playlists", iLike: "Liked songs", shop: "Shop", homeContinueListening: "Continue listening",
  homeNewEpisodes: "New episodes", downloads: "Downloads",
  newSheet: "New playlist", sheetTitle: "Playlist title", create: "Create", created: "Created",
  addedToSheet: "Added to the playlist", addedToQueue: "Added to the queue", willPlayNext: "Plays next",
  liked: "Added to Liked songs", unliked: "Removed from Liked songs", collect: "Collect", collected: "Collected",
  uncollect: "Uncollect", storageUsed: "{used} used of {quota}", freeStorage: "Delete all downloads",
  noDownloads: "No downloaded songs yet", downloadDone: "Downloaded: {title}", downloadFailed: "Download failed: {title}",
  deleted: "Deleted", theme: "Theme", themeSystem: "System", themeLight: "Light", themeDark: "Dark",
  language: "Language", langAuto: "Browser", lyricSize: "Lyrics size", lyricColor: "Lyrics colour", close: "Close",
  smaller: "Smaller", larger: "Larger", emptyQueue: "The queue is empty", emptyHistory: "Nothing played yet",
  cannotPlay: "Cannot play: {title}",
  shortcuts: "Keys: Space play/pause, ← → seek, Ctrl+← → previous/next, Ctrl+↑ ↓ volume, / search",
  plays: "{n} plays", albumsCount: "{n} albums", tracks: "{n} songs", year: "{y}", unknownArtist: "Unknown artist", genreSongs: "{name} songs",
  noMore: "That's all", removeFromSheet: "Remove from playlist", confirmClear: "Delete every downloaded song?",
  ok: "OK", serverOffline: "The server cannot be reached", sheetOf: "A playlist by {name}",
  collectsCount: "{n} collects", allSheets: "All playlists", allAlbums: "All albums", allArtists: "All artists",
  allGenres: "Genres", mostPlayed: "Most played", more2: "More actions", shuffleOn: "Shuffle",
  openPlayer: "Open the player", hideLyrics: "Close desktop lyrics", lyricsOn: "Desktop lyrics on",
};

// The few words of the social side the chrome shows at once; the rest come with its screens (i18n-social.js).
Object.assign(zh, { moments: "动态", inbox: "通知", videos: "视频", myPage: "主页", messages: "私信" });
Object.assign(en, { moments: "Moments", inbox: "Inbox", videos: "Videos", myPage: "My page", messages: "Messages" });
Object.assign(zh, { podcasts: "播客" });
Object.assign(en, { podcasts: "Podcasts" });
Object.assign(zh, { news: "资讯" });
Object.assign(en, { news: "News" });
// The home's module titles (the search screen and the home's actions bring their own words).
Object.assign(zh, { personalRadio: "私人FM", sheetsForYou: "推荐歌单", guessYouLike: "猜你喜欢", arrangeHome: "调整首页" });
Object.assign(en, { personalRadio: "Personal FM", sheetsForYou: "Playlists for you", guessYouLike: "You may like", arrangeHome: "Arrange home" });

/** Adds words to both languages (a screen's module brings its own). */
export function extend(more) {
  Object.assign(zh, more.zh);
  Object.assign(en, more.en);
}

const tables = { zh, en };

/** "zh" or "en": the person's choice, else the browser's first language. */
export function lang() {
  const chosen = get().lang;
  if (chosen === "zh" || chosen === "en") return chosen;
  const first = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return first.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** The text of `key` in the current language, with `{name}` filled from `vars`. */
export function t(key, vars) {
  const text = tables[lang()][key] ?? en[key] ?? key;
  return vars ? text.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? "")) : text;
}

/** 12345 as 1.2万 or 12.3K. */
export function count(n) {
  n = Number(n) || 0;
  if (lang() === "zh") {
    if (n >= 1e8) return `${(n / 1e8).toFixed(1).replace(/\.0$/, "")}亿`;
    if (n >= 1e4) return `${(n / 1e4).toFixed(1).replace(/\.0$/, "")}万`;
    return String(n);
  }
  if (n >= 1e6) return `${(n / 1e6).toFixed(1).replace(/\.0$/, "")}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1).replace(/\.0$/, "")}K`;
  return String(n);
}

/** Milliseconds (or seconds with `seconds`) as m:ss. */
export function duration(value, seconds = false) {
  const total = Math.max(0, Math.floor(seconds ? value : value / 1000));
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${m}:${s}`;
}

/** Bytes as 1.2 MB. */
export function bytes(n) {
  if (!n) return "0 B";
  const units = ["B", "KB", "MB", "GB", "TB"];
  const i = Math.min(units.length - 1, Math.floor(Math.log(n) / Math.log(1024)));
  return `${(n / 1024 ** i).toFixed(i ? 1 : 0)} ${units[i]}`;
}
