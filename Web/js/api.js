// Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
// Regenerate with `cloudmusic-server generate` at the repository root; openapi.json documents each call.
import { call, address } from "./http.js";
const e = (method, path, query, access, media) => ({ method, path, query, access, media });

export const server = {
  info: (params, body) => call(e("GET", "/v1/server", [], "anyone", false), params, body),
  health: (params, body) => call(e("GET", "/health", [], "anyone", false), params, body),
  metrics: (params) => address(e("GET", "/metrics", [], "anyone", true), params),
  openAPI: (params) => address(e("GET", "/v1/openapi.json", [], "anyone", true), params),
};

export const catalog = {
  songs: (params, body) => call(e("GET", "/v1/songs", ["page", "size", "sort", "artist", "album", "genre"], "optionalSignIn", false), params, body),
  song: (params, body) => call(e("GET", "/v1/songs/{id}", [], "optionalSignIn", false), params, body),
  lyric: (params, body) => call(e("GET", "/v1/songs/{id}/lyric", [], "optionalSignIn", false), params, body),
  stream: (params) => address(e("GET", "/v1/songs/{id}/stream", ["format", "maxBitRate", "timeOffset"], "optionalSignIn", true), params),
  songCover: (params) => address(e("GET", "/v1/songs/{id}/cover", ["size"], "optionalSignIn", true), params),
  albums: (params, body) => call(e("GET", "/v1/albums", ["page", "size", "sort", "artist"], "optionalSignIn", false), params, body),
  album: (params, body) => call(e("GET", "/v1/albums/{id}", [], "optionalSignIn", false), params, body),
  albumCover: (params) => address(e("GET", "/v1/albums/{id}/cover", ["size"], "optionalSignIn", true), params),
  artists: (params, body) => call(e("GET", "/v1/artists", ["page", "size", "sort"], "optionalSignIn", false), params, body),
  artist: (params, body) => call(e("GET", "/v1/artists/{id}", [], "optionalSignIn", false), params, body),
  genres: (params, body) => call(e("GET", "/v1/genres", ["page", "size"], "optionalSignIn", false), params, body),
  search: (params, body) => call(e("GET", "/v1/searches", ["q", "query", "size"], "optionalSignIn", false), params, body),
  suggestions: (params, body) => call(e("GET", "/v1/searches/suggests", ["q", "query", "size"], "optionalSignIn", false), params, body),
  scanStatus: (params, body) => call(e("GET", "/v1/library/scan", [], "adminOrFirstRun", false), params, body),
  startScan: (params, body) => call(e("POST", "/v1/library/scan", [], "adminOrFirstRun", false), params, body),
};

export const accounts = {
  register: (params, body) => call(e("POST", "/v1/users", [], "anyone", false), params, body),
  profile: (params, body) => call(e("GET", "/v1/users/{id}", [], "optionalSignIn", false), params, body),
  findByNickname: (params, body) => call(e("GET", "/v1/users", ["nickname", "page", "size"], "optionalSignIn", false), params, body),
  updateProfile: (params, body) => call(e("PATCH", "/v1/users/{id}", [], "signedIn", false), params, body),
  deleteAccount: (params, body) => call(e("DELETE", "/v1/users/{id}", [], "signedIn", false), params, body),
  changePassword: (params, body) => call(e("PUT", "/v1/users/{id}/password", [], "signedIn", false), params, body),
  uploadAvatar: (params, body) => call(e("POST", "/v1/users/{id}/avatar", [], "signedIn", false), params, body),
  avatar: (params) => address(e("GET", "/v1/users/{id}/avatar", [], "optionalSignIn", true), params),
  resetPassword: (params, body) => call(e("POST", "/v1/users/reset_password", [], "anyone", false), params, body),
  login: (params, body) => call(e("POST", "/v1/sessions", [], "anyone", false), params, body),
  sessions: (params, body) => call(e("GET", "/v1/sessions", [], "signedIn", false), params, body),
  logout: (params, body) => call(e("DELETE", "/v1/sessions/current", [], "signedIn", false), params, body),
  revokeSession: (params, body) => call(e("DELETE", "/v1/sessions/{id}", [], "signedIn", false), params, body),
  sendCode: (params, body) => call(e("POST", "/v1/codes", [], "anyone", false), params, body),
  checkCode: (params, body) => call(e("POST", "/v1/codes/check", [], "anyone", false), params, body),
  adminUsers: (params, body) => call(e("GET", "/v1/admin/users", ["page", "size"], "admin", false), params, body),
  adminUpdateUser: (params, body) => call(e("PATCH", "/v1/admin/users/{id}", [], "admin", false), params, body),
  outbox: (params, body) => call(e("GET", "/v1/admin/outbox", ["page", "size"], "adminOrFirstRun", false), params, body),
};

export const sheets = {
  list: (params, body) => call(e("GET", "/v1/sheets", ["page", "size", "order", "tag"], "optionalSignIn", false), params, body),
  search: (params, body) => call(e("GET", "/v1/searches/sheets", ["query", "q", "page", "size"], "optionalSignIn", false), params, body),
  create: (params, body) => call(e("POST", "/v1/sheets", [], "signedIn", false), params, body),
  importM3U: (params, body) => call(e("POST", "/v1/sheets/import", ["title", "private"], "signedIn", false), params, body),
  detail: (params, body) => call(e("GET", "/v1/sheets/{id}", ["songs"], "optionalSignIn", false), params, body),
  update: (params, body) => call(e("PATCH", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  cover: (params) => address(e("GET", "/v1/sheets/{id}/cover", [], "optionalSignIn", true), params),
  uploadCover: (params, body) => call(e("POST", "/v1/sheets/{id}/cover", [], "signedIn", false), params, body),
  deleteCover: (params, body) => call(e("DELETE", "/v1/sheets/{id}/cover", [], "signedIn", false), params, body),
  m3u: (params) => address(e("GET", "/v1/sheets/{id}/m3u", [], "optionalSignIn", true), params),
  songs: (params, body) => call(e("GET", "/v1/sheets/{id}/songs", ["page", "size"], "optionalSignIn", false), params, body),
  addSongs: (params, body) => call(e("POST", "/v1/sheets/{id}/relations", [], "signedIn", false), params, body),
  removeSongs: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations", ["songIds"], "signedIn", false), params, body),
  removeSong: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  moveSong: (params, body) => call(e("PATCH", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  likeSong: (params, body) => call(e("PUT", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  unlikeSong: (params, body) => call(e("DELETE", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  created: (params, body) => call(e("GET", "/v1/users/{id}/create", ["page", "size"], "optionalSignIn", false), params, body),
  collected: (params, body) => call(e("GET", "/v1/users/{id}/collect", ["page", "size"], "optionalSignIn", false), params, body),
  collect: (params, body) => call(e("POST", "/v1/collections", [], "signedIn", false), params, body),
  uncollect: (params, body) => call(e("DELETE", "/v1/collections/{id}", [], "signedIn", false), params, body),
  reportPlay: (params, body) => call(e("POST", "/v1/plays", [], "signedIn", false), params, body),
  history: (params, body) => call(e("GET", "/v1/plays", ["page", "size", "order"], "signedIn", false), params, body),
  clearHistory: (params, body) => call(e("DELETE", "/v1/plays", [], "signedIn", false), params, body),
  queue: (params, body) => call(e("GET", "/v1/queue", [], "signedIn", false), params, body),
  saveQueue: (params, body) => call(e("PUT", "/v1/queue", [], "signedIn", false), params, body),
};

export const comments = {
  list: (params, body) => call(e("GET", "/v1/comments", ["songId", "sheetId", "feedId", "videoId", "episodeId", "parentId", "order", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  create: (params, body) => call(e("POST", "/v1/comments", [], "signedIn", false), params, body),
  detail: (params, body) => call(e("GET", "/v1/comments/{id}", [], "optionalSignIn", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/comments/{id}", [], "signedIn", false), params, body),
  report: (params, body) => call(e("POST", "/v1/comments/{id}/reports", [], "signedIn", false), params, body),
  like: (params, body) => call(e("POST", "/v1/likes", [], "signedIn", false), params, body),
  unlike: (params, body) => call(e("DELETE", "/v1/likes/{id}", [], "signedIn", false), params, body),
  topics: (params, body) => call(e("GET", "/v1/topics", ["title", "page", "size"], "optionalSignIn", false), params, body),
  topic: (params, body) => call(e("GET", "/v1/topics/{id}", ["cursor", "size"], "optionalSignIn", false), params, body),
  reports: (params, body) => call(e("GET", "/v1/admin/reports", ["page", "size"], "admin", false), params, body),
  moderate: (params, body) => call(e("PATCH", "/v1/admin/comments/{id}", [], "admin", false), params, body),
};

export const feeds = {
  list: (params, body) => call(e("GET", "/v1/feeds", ["userId", "topicId", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  create: (params, body) => call(e("POST", "/v1/feeds", [], "signedIn", false), params, body),
  timeline: (params, body) => call(e("GET", "/v1/feeds/timeline", ["cursor", "page", "size"], "signedIn", false), params, body),
  nearby: (params, body) => call(e("GET", "/v1/feeds/nearby", ["latitude", "longitude", "radius", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  detail: (params, body) => call(e("GET", "/v1/feeds/{id}", [], "optionalSignIn", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/feeds/{id}", [], "signedIn", false), params, body),
};

export const follows = {
  follow: (params, body) => call(e("POST", "/v1/friends", [], "signedIn", false), params, body),
  unfollow: (params, body) => call(e("DELETE", "/v1/friends/{id}", [], "signedIn", false), params, body),
  following: (params, body) => call(e("GET", "/v1/users/{id}/following", ["page", "size"], "optionalSignIn", false), params, body),
  followers: (params, body) => call(e("GET", "/v1/users/{id}/followers", ["page", "size"], "optionalSignIn", false), params, body),
  friends: (params, body) => call(e("GET", "/v1/users/{id}/friends", ["page", "size"], "optionalSignIn", false), params, body),
  searchUsers: (params, body) => call(e("GET", "/v1/searches/users", ["query", "q", "size"], "optionalSignIn", false), params, body),
  blocks: (params, body) => call(e("GET", "/v1/blocks", ["page", "size"], "signedIn", false), params, body),
  block: (params, body) => call(e("POST", "/v1/blocks", [], "signedIn", false), params, body),
  unblock: (params, body) => call(e("DELETE", "/v1/blocks/{id}", [], "signedIn", false), params, body),
};

export const notifications = {
  list: (params, body) => call(e("GET", "/v1/notifications", ["unread", "cursor", "page", "size"], "signedIn", false), params, body),
  unread: (params, body) => call(e("GET", "/v1/notifications/unread", [], "signedIn", false), params, body),
  update: (params, body) => call(e("PATCH", "/v1/notifications/{id}", [], "signedIn", false), params, body),
  markRead: (params, body) => call(e("POST", "/v1/notifications/read", [], "signedIn", false), params, body),
};

export const files = {
  upload: (params, body) => call(e("POST", "/v1/files/multi", [], "signedIn", false), params, body),
  file: (params) => address(e("GET", "/v1/files/{name}", [], "anyone", true), params),
};

export const ads = {
  list: (params, body) => call(e("GET", "/v1/ads", ["position", "page", "size"], "optionalSignIn", false), params, body),
  icon: (params) => address(e("GET", "/v1/ads/{id}/icon", [], "optionalSignIn", true), params),
  video: (params) => address(e("GET", "/v1/ads/{id}/video", [], "optionalSignIn", true), params),
  adminList: (params, body) => call(e("GET", "/v1/admin/ads", ["position", "page", "size"], "admin", false), params, body),
  create: (params, body) => call(e("POST", "/v1/admin/ads", [], "admin", false), params, body),
  update: (params, body) => call(e("PATCH", "/v1/admin/ads/{id}", [], "admin", false), params, body),
  replaceMedia: (params, body) => call(e("PUT", "/v1/admin/ads/{id}/media", [], "admin", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/admin/ads/{id}", [], "admin", false), params, body),
  reorder: (params, body) => call(e("PUT", "/v1/admin/ads/order", [], "admin", false), params, body),
};

export const home = {
  home: (params, body) => call(e("GET", "/v1/home", [], "optionalSignIn", false), params, body),
  layout: (params, body) => call(e("GET", "/v1/home/layout", [], "signedIn", false), params, body),
  saveLayout: (params, body) => call(e("PUT", "/v1/home/layout", [], "signedIn", false), params, body),
  resetLayout: (params, body) => call(e("DELETE", "/v1/home/layout", [], "signedIn", false), params, body),
  settings: (params, body) => call(e("GET", "/v1/admin/home", [], "admin", false), params, body),
  saveSettings: (params, body) => call(e("PUT", "/v1/admin/home", [], "admin", false), params, body),
};

export const searchHistory = {
  hot: (params, body) => call(e("GET", "/v1/searches/hot", [], "anyone", false), params, body),
  history: (params, body) => call(e("GET", "/v1/searches/history", [], "signedIn", false), params, body),
  record: (params, body) => call(e("POST", "/v1/searches/history", [], "signedIn", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/searches/history/{id}", [], "signedIn", false), params, body),
  clear: (params, body) => call(e("DELETE", "/v1/searches/history", [], "signedIn", false), params, body),
};

export const categories = {
  list: (params, body) => call(e("GET", "/v1/categories", ["page", "size"], "optionalSignIn", false), params, body),
};

export const appVersions = {
  latest: (params, body) => call(e("GET", "/v1/app_versions/latest", ["platform", "version"], "optionalSignIn", false), params, body),
  adminList: (params, body) => call(e("GET", "/v1/admin/app_versions", ["platform", "page", "size"], "admin", false), params, body),
  publish: (params, body) => call(e("POST", "/v1/admin/app_versions", [], "admin", false), params, body),
  update: (params, body) => call(e("PATCH", "/v1/admin/app_versions/{id}", [], "admin", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/admin/app_versions/{id}", [], "admin", false), params, body),
};

export const terms = {
  current: (params, body) => call(e("GET", "/v1/terms", [], "optionalSignIn", false), params, body),
  accept: (params, body) => call(e("POST", "/v1/terms/acceptances", [], "signedIn", false), params, body),
  acceptances: (params, body) => call(e("GET", "/v1/terms/acceptances", [], "signedIn", false), params, body),
  adminList: (params, body) => call(e("GET", "/v1/admin/terms", ["kind", "page", "size"], "admin", false), params, body),
  publish: (params, body) => call(e("POST", "/v1/admin/terms", [], "admin", false), params, body),
};

export const videos = {
  list: (params, body) => call(e("GET", "/v1/videos", ["page", "size", "order"], "optionalSignIn", false), params, body),
  detail: (params, body) => call(e("GET", "/v1/videos/{id}", [], "optionalSignIn", false), params, body),
  stream: (params) => address(e("GET", "/v1/videos/{id}/stream", ["format", "timeOffset"], "optionalSignIn", true), params),
  cover: (params) => address(e("GET", "/v1/videos/{id}/cover", [], "optionalSignIn", true), params),
  upload: (params, body) => call(e("POST", "/v1/videos", [], "admin", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/videos/{id}", [], "admin", false), params, body),
  like: (params, body) => call(e("PUT", "/v1/videos/{id}/like", [], "signedIn", false), params, body),
  unlike: (params, body) => call(e("DELETE", "/v1/videos/{id}/like", [], "signedIn", false), params, body),
  scanStatus: (params, body) => call(e("GET", "/v1/videos/scan", [], "adminOrFirstRun", false), params, body),
  startScan: (params, body) => call(e("POST", "/v1/videos/scan", [], "adminOrFirstRun", false), params, body),
};

export const recommendations = {
  daily: (params, body) => call(e("GET", "/v1/recommendations/songs", [], "signedIn", false), params, body),
  radio: (params, body) => call(e("GET", "/v1/radio/next", ["count", "size"], "signedIn", false), params, body),
  similarSongs: (params, body) => call(e("GET", "/v1/songs/{id}/similar", ["size"], "optionalSignIn", false), params, body),
  similarSheets: (params, body) => call(e("GET", "/v1/sheets/{id}/similar", ["size"], "optionalSignIn", false), params, body),
  dislikes: (params, body) => call(e("GET", "/v1/recommendations/dislikes", ["page", "size"], "signedIn", false), params, body),
  dislike: (params, body) => call(e("POST", "/v1/recommendations/dislikes", [], "signedIn", false), params, body),
  undislike: (params, body) => call(e("DELETE", "/v1/recommendations/dislikes/{id}", [], "signedIn", false), params, body),
};

export const appPasswords = {
  create: (params, body) => call(e("POST", "/v1/users/{id}/app_passwords", [], "signedIn", false), params, body),
  list: (params, body) => call(e("GET", "/v1/users/{id}/app_passwords", [], "signedIn", false), params, body),
  revoke: (params, body) => call(e("DELETE", "/v1/users/{id}/app_passwords/{passwordId}", [], "signedIn", false), params, body),
  nowPlaying: (params, body) => call(e("GET", "/v1/users/{id}/now_playing", [], "signedIn", false), params, body),
  setNowPlaying: (params, body) => call(e("PUT", "/v1/users/{id}/now_playing", [], "signedIn", false), params, body),
};

export const messages = {
  send: (params, body) => call(e("POST", "/v1/messages", [], "signedIn", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/messages/{id}", [], "signedIn", false), params, body),
  unread: (params, body) => call(e("GET", "/v1/messages/unread", [], "signedIn", false), params, body),
  conversations: (params, body) => call(e("GET", "/v1/conversations", ["userId", "cursor", "page", "size"], "signedIn", false), params, body),
  conversation: (params, body) => call(e("GET", "/v1/conversations/{id}", [], "signedIn", false), params, body),
  messages: (params, body) => call(e("GET", "/v1/conversations/{id}/messages", ["before", "after", "size"], "signedIn", false), params, body),
  markRead: (params, body) => call(e("POST", "/v1/conversations/{id}/read", [], "signedIn", false), params, body),
  deleteConversation: (params, body) => call(e("DELETE", "/v1/conversations/{id}", [], "signedIn", false), params, body),
  settings: (params, body) => call(e("GET", "/v1/message_settings", [], "signedIn", false), params, body),
  saveSettings: (params, body) => call(e("PUT", "/v1/message_settings", [], "signedIn", false), params, body),
};

export const events = {
  stream: (params) => address(e("GET", "/v1/events", ["token", "lastEventId"], "chatToken", true), params),
  token: (params, body) => call(e("POST", "/v1/events/token", [], "signedIn", false), params, body),
};

export const shop = {
  products: (params, body) => call(e("GET", "/v1/shop/products", ["q", "page", "size"], "optionalSignIn", false), params, body),
  product: (params, body) => call(e("GET", "/v1/shop/products/{id}", [], "optionalSignIn", false), params, body),
  createProduct: (params, body) => call(e("POST", "/v1/admin/shop/products", [], "admin", false), params, body),
  updateProduct: (params, body) => call(e("PATCH", "/v1/admin/shop/products/{id}", [], "admin", false), params, body),
  addSKU: (params, body) => call(e("POST", "/v1/admin/shop/products/{id}/skus", [], "admin", false), params, body),
  updateSKU: (params, body) => call(e("PATCH", "/v1/admin/shop/skus/{id}", [], "admin", false), params, body),
  cart: (params, body) => call(e("GET", "/v1/carts", [], "signedIn", false), params, body),
  addToCart: (params, body) => call(e("POST", "/v1/carts", [], "signedIn", false), params, body),
  setCartQuantity: (params, body) => call(e("PATCH", "/v1/carts/{id}", [], "signedIn", false), params, body),
  removeFromCart: (params, body) => call(e("DELETE", "/v1/carts/{id}", [], "signedIn", false), params, body),
  order: (params, body) => call(e("POST", "/v1/orders", [], "signedIn", false), params, body),
  orders: (params, body) => call(e("GET", "/v1/orders", ["page", "size"], "signedIn", false), params, body),
  orderDetail: (params, body) => call(e("GET", "/v1/orders/{id}", [], "signedIn", false), params, body),
  cancelOrder: (params, body) => call(e("POST", "/v1/orders/{id}/cancel", [], "signedIn", false), params, body),
  confirmReceipt: (params, body) => call(e("POST", "/v1/orders/{id}/receipt", [], "signedIn", false), params, body),
  pay: (params, body) => call(e("POST", "/v1/orders/{id}/payments", [], "signedIn", false), params, body),
  notifyAlipay: (params) => address(e("POST", "/v1/shop/notify/alipay", [], "anyone", true), params),
  notifyWeChatPay: (params) => address(e("POST", "/v1/shop/notify/wechat", [], "anyone", true), params),
  notifySandbox: (params) => address(e("POST", "/v1/shop/notify/sandbox", [], "anyone", true), params),
  sandboxPage: (params) => address(e("GET", "/v1/shop/sandbox/pay", ["order", "token", "action"], "anyone", true), params),
  sandboxAct: (params) => address(e("POST", "/v1/shop/sandbox/pay", ["order", "token", "action"], "anyone", true), params),
  adminOrders: (params, body) => call(e("GET", "/v1/admin/shop/orders", ["state", "cursor", "size"], "admin", false), params, body),
  shipOrder: (params, body) => call(e("POST", "/v1/admin/shop/orders/{id}/ship", [], "admin", false), params, body),
  refund: (params, body) => call(e("POST", "/v1/admin/shop/orders/{id}/refund", [], "admin", false), params, body),
};

export const podcasts = {
  list: (params, body) => call(e("GET", "/v1/podcasts", ["page", "size", "q", "kind", "category"], "optionalSignIn", false), params, body),
  categories: (params, body) => call(e("GET", "/v1/podcasts/categories", [], "optionalSignIn", false), params, body),
  detail: (params, body) => call(e("GET", "/v1/podcasts/{id}", [], "optionalSignIn", false), params, body),
  cover: (params) => address(e("GET", "/v1/podcasts/{id}/cover", ["size"], "optionalSignIn", true), params),
  episodes: (params, body) => call(e("GET", "/v1/podcasts/{id}/episodes", ["page", "size", "sort", "cursor"], "optionalSignIn", false), params, body),
  add: (params, body) => call(e("POST", "/v1/podcasts", [], "admin", false), params, body),
  importOPML: (params, body) => call(e("POST", "/v1/podcasts/opml", [], "admin", false), params, body),
  update: (params, body) => call(e("PATCH", "/v1/podcasts/{id}", [], "admin", false), params, body),
  delete: (params, body) => call(e("DELETE", "/v1/podcasts/{id}", [], "admin", false), params, body),
  refresh: (params, body) => call(e("POST", "/v1/podcasts/{id}/refresh", [], "admin", false), params, body),
  refreshAll: (params, body) => call(e("POST", "/v1/podcasts/refresh", [], "admin", false), params, body),
  subscribe: (params, body) => call(e("PUT", "/v1/podcasts/{id}/subscription", [], "signedIn", false), params, body),
  unsubscribe: (params, body) => call(e("DELETE", "/v1/podcasts/{id}/subscription", [], "signedIn", false), params, body),
  subscriptions: (params, body) => call(e("GET", "/v1/podcasts/subscribed", ["page", "size"], "signedIn", false), params, body),
  newEpisodes: (params, body) => call(e("GET", "/v1/episodes/new", ["page", "size"], "signedIn", false), params, body),
  continueListening: (params, body) => call(e("GET", "/v1/episodes/continue", ["page", "size"], "signedIn", false), params, body),
  searchEpisodes: (params, body) => call(e("GET", "/v1/episodes", ["page", "size", "q"], "optionalSignIn", false), params, body),
  episode: (params, body) => call(e("GET", "/v1/episodes/{id}", [], "optionalSignIn", false), params, body),
  stream: (params) => address(e("GET", "/v1/episodes/{id}/stream", [], "optionalSignIn", true), params),
  progress: (params, body) => call(e("GET", "/v1/episodes/{id}/progress", [], "signedIn", false), params, body),
  saveProgress: (params, body) => call(e("PUT", "/v1/episodes/{id}/progress", [], "signedIn", false), params, body),
  chapters: (params, body) => call(e("GET", "/v1/episodes/{id}/chapters", [], "optionalSignIn", false), params, body),
  transcript: (params, body) => call(e("GET", "/v1/episodes/{id}/transcript", [], "optionalSignIn", false), params, body),
};

export const audiobooks = {
  cover: (params) => address(e("GET", "/v1/audiobooks/{id}/cover", ["size"], "optionalSignIn", true), params),
  chapters: (params, body) => call(e("GET", "/v1/audiobooks/parts/{id}/chapters", [], "optionalSignIn", false), params, body),
  scan: (params, body) => call(e("POST", "/v1/audiobooks/scan", [], "admin", false), params, body),
  deleted: (params, body) => call(e("GET", "/v1/audiobooks/deleted", [], "admin", false), params, body),
  restore: (params, body) => call(e("POST", "/v1/audiobooks/deleted/{id}/restore", [], "admin", false), params, body),
};

export const news = {
  channels: (params, body) => call(e("GET", "/v1/news/channels", [], "signedIn", false), params, body),
  createChannel: (params, body) => call(e("POST", "/v1/news/channels", [], "signedIn", false), params, body),
  updateChannel: (params, body) => call(e("PATCH", "/v1/news/channels/{id}", [], "signedIn", false), params, body),
  deleteChannel: (params, body) => call(e("DELETE", "/v1/news/channels/{id}", [], "signedIn", false), params, body),
  sources: (params, body) => call(e("GET", "/v1/news/sources", [], "signedIn", false), params, body),
  addSource: (params, body) => call(e("POST", "/v1/news/sources", [], "signedIn", false), params, body),
  deleteSource: (params, body) => call(e("DELETE", "/v1/news/sources/{id}", [], "signedIn", false), params, body),
  refreshSource: (params, body) => call(e("POST", "/v1/news/sources/{id}/refresh", [], "signedIn", false), params, body),
  articles: (params, body) => call(e("GET", "/v1/news/channels/{id}/articles", ["cursor", "since", "page", "size"], "signedIn", false), params, body),
  article: (params, body) => call(e("GET", "/v1/news/articles/{id}", [], "signedIn", false), params, body),
  markRead: (params, body) => call(e("PUT", "/v1/news/articles/{id}/read", [], "signedIn", false), params, body),
  markSaved: (params, body) => call(e("PUT", "/v1/news/articles/{id}/saved", [], "signedIn", false), params, body),
  markHidden: (params, body) => call(e("PUT", "/v1/news/articles/{id}/hidden", [], "signedIn", false), params, body),
  readAll: (params, body) => call(e("POST", "/v1/news/channels/{id}/read-all", [], "signedIn", false), params, body),
  saved: (params, body) => call(e("GET", "/v1/news/saved", ["cursor", "size"], "signedIn", false), params, body),
  search: (params, body) => call(e("GET", "/v1/news/search", ["q", "cursor", "size"], "signedIn", false), params, body),
  image: (params) => address(e("GET", "/v1/news/images/{token}", [], "anyone", true), params),
};
