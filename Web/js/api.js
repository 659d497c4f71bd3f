// Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
// Regenerate with `cloudmusic-server generate` at the repository root.
import { call, address } from "./http.js";
const e = (method, path, query, access, media) => ({ method, path, query, access, media });

export const server = {
  /** GET /v1/server: What this server is: name and versions. */
  info: (params, body) => call(e("GET", "/v1/server", [], "anyone", false), params, body),
  /** GET /health: Whether the server is up. */
  health: (params, body) => call(e("GET", "/health", [], "anyone", false), params, body),
  /** GET /metrics: Requests by route and status, latency histograms, open connections and bytes sent (Prometheus text). */
  metrics: (params) => address(e("GET", "/metrics", [], "anyone", true), params),
  /** GET /v1/openapi.json: This API's OpenAPI 3.1 description. */
  openAPI: (params) => address(e("GET", "/v1/openapi.json", [], "anyone", true), params),
};

export const catalog = {
  /** GET /v1/songs: Songs of the library, filtered by artist, album or genre. */
  songs: (params, body) => call(e("GET", "/v1/songs", ["page", "size", "sort", "artist", "album", "genre"], "optionalSignIn", false), params, body),
  /** GET /v1/songs/{id}: A song with its raw lyric text. */
  song: (params, body) => call(e("GET", "/v1/songs/{id}", [], "optionalSignIn", false), params, body),
  /** GET /v1/songs/{id}/lyric: A song's lyric as raw text and as parsed lines (and words, for KSC and word-timed LRC). */
  lyric: (params, body) => call(e("GET", "/v1/songs/{id}/lyric", [], "optionalSignIn", false), params, body),
  /** GET /v1/songs/{id}/stream: The song's file, or a live transcode when a format, bit rate or offset is asked. */
  stream: (params) => address(e("GET", "/v1/songs/{id}/stream", ["format", "maxBitRate", "timeOffset"], "optionalSignIn", true), params),
  /** GET /v1/songs/{id}/cover: The song's cover: its embedded picture, else its album's. */
  songCover: (params) => address(e("GET", "/v1/songs/{id}/cover", ["size"], "optionalSignIn", true), params),
  /** GET /v1/albums: Albums of the library, optionally of one artist. */
  albums: (params, body) => call(e("GET", "/v1/albums", ["page", "size", "sort", "artist"], "optionalSignIn", false), params, body),
  /** GET /v1/albums/{id}: An album with its songs in disc and track order. */
  album: (params, body) => call(e("GET", "/v1/albums/{id}", [], "optionalSignIn", false), params, body),
  /** GET /v1/albums/{id}/cover: The album's cover: its folder image, else a song's embedded picture. */
  albumCover: (params) => address(e("GET", "/v1/albums/{id}/cover", ["size"], "optionalSignIn", true), params),
  /** GET /v1/artists: Artists of the library. */
  artists: (params, body) => call(e("GET", "/v1/artists", ["page", "size", "sort"], "optionalSignIn", false), params, body),
  /** GET /v1/artists/{id}: An artist with albums and most played songs. */
  artist: (params, body) => call(e("GET", "/v1/artists/{id}", [], "optionalSignIn", false), params, body),
  /** GET /v1/genres: Genres, those with most songs first. */
  genres: (params, body) => call(e("GET", "/v1/genres", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/searches: Songs, albums and artists matching what was typed, best first. */
  search: (params, body) => call(e("GET", "/v1/searches", ["q", "query", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/searches/suggests: Completions while typing. */
  suggestions: (params, body) => call(e("GET", "/v1/searches/suggests", ["q", "query", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/library/scan: See whether a library scan runs and what the last one did. */
  scanStatus: (params, body) => call(e("GET", "/v1/library/scan", [], "adminOrFirstRun", false), params, body),
  /** POST /v1/library/scan: Start a library scan. */
  startScan: (params, body) => call(e("POST", "/v1/library/scan", [], "adminOrFirstRun", false), params, body),
};

export const accounts = {
  /** POST /v1/users: Sign up with a phone or email, a code sent to it, a password and a nickname. */
  register: (params, body) => call(e("POST", "/v1/users", [], "anyone", false), params, body),
  /** GET /v1/users/{id}: A person's profile; phone, email and role only to the person themselves. */
  profile: (params, body) => call(e("GET", "/v1/users/{id}", [], "optionalSignIn", false), params, body),
  /** GET /v1/users: Find a person by nickname, as a tapped @mention passes it: a page of at most one, never a disabled account. */
  findByNickname: (params, body) => call(e("GET", "/v1/users", ["nickname", "page", "size"], "optionalSignIn", false), params, body),
  /** PATCH /v1/users/{id}: Change one's profile; fields left out stay, null or empty text clears. */
  updateProfile: (params, body) => call(e("PATCH", "/v1/users/{id}", [], "signedIn", false), params, body),
  /** DELETE /v1/users/{id}: Delete one's account (with its password) and everything of it; administrators may delete others. */
  deleteAccount: (params, body) => call(e("DELETE", "/v1/users/{id}", [], "signedIn", false), params, body),
  /** PUT /v1/users/{id}/password: Change one's password; every other device is signed out. */
  changePassword: (params, body) => call(e("PUT", "/v1/users/{id}/password", [], "signedIn", false), params, body),
  /** POST /v1/users/{id}/avatar: Set one's avatar from a JPEG, PNG or WebP picture (at most 10 MB). */
  uploadAvatar: (params, body) => call(e("POST", "/v1/users/{id}/avatar", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/avatar: A person's avatar (256x256 JPEG). */
  avatar: (params) => address(e("GET", "/v1/users/{id}/avatar", [], "optionalSignIn", true), params),
  /** POST /v1/users/reset_password: Set a new password with a `reset` code; every device is signed out. */
  resetPassword: (params, body) => call(e("POST", "/v1/users/reset_password", [], "anyone", false), params, body),
  /** POST /v1/sessions: Sign in with a password or a `login` code. */
  login: (params, body) => call(e("POST", "/v1/sessions", [], "anyone", false), params, body),
  /** GET /v1/sessions: One's signed-in devices. */
  sessions: (params, body) => call(e("GET", "/v1/sessions", [], "signedIn", false), params, body),
  /** DELETE /v1/sessions/current: Sign this device out. */
  logout: (params, body) => call(e("DELETE", "/v1/sessions/current", [], "signedIn", false), params, body),
  /** DELETE /v1/sessions/{id}: Sign another of one's devices out. */
  revokeSession: (params, body) => call(e("DELETE", "/v1/sessions/{id}", [], "signedIn", false), params, body),
  /** POST /v1/codes: Send a six-digit code to a phone or email, to sign up, sign in or reset a password. */
  sendCode: (params, body) => call(e("POST", "/v1/codes", [], "anyone", false), params, body),
  /** POST /v1/codes/check: Check a code without using it up. */
  checkCode: (params, body) => call(e("POST", "/v1/codes/check", [], "anyone", false), params, body),
  /** GET /v1/admin/users: List users. */
  adminUsers: (params, body) => call(e("GET", "/v1/admin/users", ["page", "size"], "admin", false), params, body),
  /** PATCH /v1/admin/users/{id}: Disable or enable users. */
  adminUpdateUser: (params, body) => call(e("PATCH", "/v1/admin/users/{id}", [], "admin", false), params, body),
  /** GET /v1/admin/outbox: Read the code outbox. */
  outbox: (params, body) => call(e("GET", "/v1/admin/outbox", ["page", "size"], "adminOrFirstRun", false), params, body),
};

export const sheets = {
  /** GET /v1/sheets: Public sheets, newest or most collected first; `tag` picks those with a tag. */
  list: (params, body) => call(e("GET", "/v1/sheets", ["page", "size", "order", "tag"], "optionalSignIn", false), params, body),
  /** GET /v1/searches/sheets: Public sheets whose title or tags match, best first. */
  search: (params, body) => call(e("GET", "/v1/searches/sheets", ["query", "q", "page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets: Create a sheet. */
  create: (params, body) => call(e("POST", "/v1/sheets", [], "signedIn", false), params, body),
  /** POST /v1/sheets/import: Create a sheet from an M3U playlist, matching entries by stream address, path or "Artist - Title". */
  importM3U: (params, body) => call(e("POST", "/v1/sheets/import", ["title", "private"], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}: A sheet with its first songs; a view by anyone but its owner counts as a click. */
  detail: (params, body) => call(e("GET", "/v1/sheets/{id}", ["songs"], "optionalSignIn", false), params, body),
  /** PATCH /v1/sheets/{id}: Change one's sheet; fields left out stay as they are. */
  update: (params, body) => call(e("PATCH", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}: Delete one's sheet (not the "I like" sheet). */
  delete: (params, body) => call(e("DELETE", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}/cover: The sheet's own cover (256x256 JPEG). */
  cover: (params) => address(e("GET", "/v1/sheets/{id}/cover", [], "optionalSignIn", true), params),
  /** POST /v1/sheets/{id}/cover: Set one's sheet's cover from a JPEG, PNG or WebP picture. */
  uploadCover: (params, body) => call(e("POST", "/v1/sheets/{id}/cover", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}/cover: Remove one's sheet's cover. */
  deleteCover: (params, body) => call(e("DELETE", "/v1/sheets/{id}/cover", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}/m3u: The sheet as an extended M3U playlist. */
  m3u: (params) => address(e("GET", "/v1/sheets/{id}/m3u", [], "optionalSignIn", true), params),
  /** GET /v1/sheets/{id}/songs: A page of the sheet's songs, in order. */
  songs: (params, body) => call(e("GET", "/v1/sheets/{id}/songs", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets/{id}/relations: Add songs to one's sheet (to the end; to the top of "I like"); songs already there are skipped. */
  addSongs: (params, body) => call(e("POST", "/v1/sheets/{id}/relations", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}/relations: Remove songs from one's sheet. */
  removeSongs: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations", ["songIds"], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}/relations/{songId}: Remove one song from one's sheet. */
  removeSong: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PATCH /v1/sheets/{id}/relations/{songId}: Move a song of one's sheet to a position (0 is first). */
  moveSong: (params, body) => call(e("PATCH", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PUT /v1/songs/{id}/like: Put a song at the top of one's "I like" sheet. */
  likeSong: (params, body) => call(e("PUT", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** DELETE /v1/songs/{id}/like: Take a song out of one's "I like" sheet. */
  unlikeSong: (params, body) => call(e("DELETE", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/create: Sheets a person made, "I like" first (private ones only to their owner). */
  created: (params, body) => call(e("GET", "/v1/users/{id}/create", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/users/{id}/collect: Sheets a person collected, newest first. */
  collected: (params, body) => call(e("GET", "/v1/users/{id}/collect", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/collections: Collect someone else's sheet. */
  collect: (params, body) => call(e("POST", "/v1/collections", [], "signedIn", false), params, body),
  /** DELETE /v1/collections/{id}: Stop collecting a sheet (the path holds the sheet's id). */
  uncollect: (params, body) => call(e("DELETE", "/v1/collections/{id}", [], "signedIn", false), params, body),
  /** POST /v1/plays: Count a play in one's history; the same song within 30 seconds counts once. */
  reportPlay: (params, body) => call(e("POST", "/v1/plays", [], "signedIn", false), params, body),
  /** GET /v1/plays: One's play history, most recent or most played first. */
  history: (params, body) => call(e("GET", "/v1/plays", ["page", "size", "order"], "signedIn", false), params, body),
  /** DELETE /v1/plays: Forget one's play history. */
  clearHistory: (params, body) => call(e("DELETE", "/v1/plays", [], "signedIn", false), params, body),
  /** GET /v1/queue: One's play queue, as last saved from any device. */
  queue: (params, body) => call(e("GET", "/v1/queue", [], "signedIn", false), params, body),
  /** PUT /v1/queue: Save one's play queue; with `baseVersion`, a queue saved meanwhile elsewhere is refused (409). */
  saveQueue: (params, body) => call(e("PUT", "/v1/queue", [], "signedIn", false), params, body),
};

export const comments = {
  /** GET /v1/comments: Comments on a song, sheet, moment or video (or the replies to one comment), newest or hot first; deep pages by cursor. */
  list: (params, body) => call(e("GET", "/v1/comments", ["songId", "sheetId", "feedId", "videoId", "parentId", "order", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/comments: Comment on a song, sheet, moment or video, or reply to a comment; @mentions and #topics# are found in the text. */
  create: (params, body) => call(e("POST", "/v1/comments", [], "signedIn", false), params, body),
  /** GET /v1/comments/{id}: One comment. */
  detail: (params, body) => call(e("GET", "/v1/comments/{id}", [], "optionalSignIn", false), params, body),
  /** DELETE /v1/comments/{id}: Delete one's comment (its replies go with it). */
  delete: (params, body) => call(e("DELETE", "/v1/comments/{id}", [], "signedIn", false), params, body),
  /** POST /v1/comments/{id}/reports: Report a comment to the administrators. */
  report: (params, body) => call(e("POST", "/v1/comments/{id}/reports", [], "signedIn", false), params, body),
  /** POST /v1/likes: Like a comment (`commentId`) or a moment (`feedId`); it comes back with its `likeId`. */
  like: (params, body) => call(e("POST", "/v1/likes", [], "signedIn", false), params, body),
  /** DELETE /v1/likes/{id}: Take back a like (the path holds the `likeId`). */
  unlike: (params, body) => call(e("DELETE", "/v1/likes/{id}", [], "signedIn", false), params, body),
  /** GET /v1/topics: #Topics# with comments or moments, the most talked about first; with `title`, the topic of that text. */
  topics: (params, body) => call(e("GET", "/v1/topics", ["title", "page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/topics/{id}: A #topic#: its newest comments and moments. */
  topic: (params, body) => call(e("GET", "/v1/topics/{id}", ["cursor", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/admin/reports: Read reports. */
  reports: (params, body) => call(e("GET", "/v1/admin/reports", ["page", "size"], "admin", false), params, body),
  /** PATCH /v1/admin/comments/{id}: Hide comments. */
  moderate: (params, body) => call(e("PATCH", "/v1/admin/comments/{id}", [], "admin", false), params, body),
};

export const feeds = {
  /** GET /v1/feeds: Moments, newest first: everyone's, one person's (`userId`) or a topic's (`topicId`). */
  list: (params, body) => call(e("GET", "/v1/feeds", ["userId", "topicId", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/feeds: Publish a moment: text and/or up to nine pictures uploaded first, and a place. */
  create: (params, body) => call(e("POST", "/v1/feeds", [], "signedIn", false), params, body),
  /** GET /v1/feeds/timeline: Moments of the people one follows, and one's own, newest first. */
  timeline: (params, body) => call(e("GET", "/v1/feeds/timeline", ["cursor", "page", "size"], "signedIn", false), params, body),
  /** GET /v1/feeds/nearby: Moments published near a place, nearest first. */
  nearby: (params, body) => call(e("GET", "/v1/feeds/nearby", ["latitude", "longitude", "radius", "cursor", "page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/feeds/{id}: One moment. */
  detail: (params, body) => call(e("GET", "/v1/feeds/{id}", [], "optionalSignIn", false), params, body),
  /** DELETE /v1/feeds/{id}: Delete one's moment. */
  delete: (params, body) => call(e("DELETE", "/v1/feeds/{id}", [], "signedIn", false), params, body),
};

export const follows = {
  /** POST /v1/friends: Follow someone; their profile comes back. */
  follow: (params, body) => call(e("POST", "/v1/friends", [], "signedIn", false), params, body),
  /** DELETE /v1/friends/{id}: Stop following someone. */
  unfollow: (params, body) => call(e("DELETE", "/v1/friends/{id}", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/following: The people a person follows, newest first. */
  following: (params, body) => call(e("GET", "/v1/users/{id}/following", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/users/{id}/followers: The people who follow a person, newest first. */
  followers: (params, body) => call(e("GET", "/v1/users/{id}/followers", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/users/{id}/friends: The people a person follows who follow them back. */
  friends: (params, body) => call(e("GET", "/v1/users/{id}/friends", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/searches/users: People whose nickname starts with what was typed, the ones one follows first. */
  searchUsers: (params, body) => call(e("GET", "/v1/searches/users", ["query", "q", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/blocks: The people one blocked. */
  blocks: (params, body) => call(e("GET", "/v1/blocks", ["page", "size"], "signedIn", false), params, body),
  /** POST /v1/blocks: Block someone: they cannot follow, mention or message one. */
  block: (params, body) => call(e("POST", "/v1/blocks", [], "signedIn", false), params, body),
  /** DELETE /v1/blocks/{id}: Unblock someone. */
  unblock: (params, body) => call(e("DELETE", "/v1/blocks/{id}", [], "signedIn", false), params, body),
};

export const notifications = {
  /** GET /v1/notifications: One's notifications, newest first; deep pages by cursor. */
  list: (params, body) => call(e("GET", "/v1/notifications", ["unread", "cursor", "page", "size"], "signedIn", false), params, body),
  /** GET /v1/notifications/unread: How many notifications are unread, in all and by kind. */
  unread: (params, body) => call(e("GET", "/v1/notifications/unread", [], "signedIn", false), params, body),
  /** PATCH /v1/notifications/{id}: Mark one notification read or unread. */
  update: (params, body) => call(e("PATCH", "/v1/notifications/{id}", [], "signedIn", false), params, body),
  /** POST /v1/notifications/read: Mark every notification read, or those up to `before`; the unread counts come back. */
  markRead: (params, body) => call(e("POST", "/v1/notifications/read", [], "signedIn", false), params, body),
};

export const files = {
  /** POST /v1/files/multi: Upload up to nine pictures (JPEG, PNG, WebP, GIF); location data is stripped. */
  upload: (params, body) => call(e("POST", "/v1/files/multi", [], "signedIn", false), params, body),
  /** GET /v1/files/{name}: A stored picture or its thumbnail; its name is its content's hash. */
  file: (params) => address(e("GET", "/v1/files/{name}", [], "anyone", true), params),
};

export const ads = {
  /** GET /v1/ads: The ads showing now at a position, in their order; sent with an ETag (304 to If-None-Match) so an app can keep its splash ad. */
  list: (params, body) => call(e("GET", "/v1/ads", ["position", "page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/ads/{id}/icon: An ad's picture (a video ad's first frame). */
  icon: (params) => address(e("GET", "/v1/ads/{id}/icon", [], "optionalSignIn", true), params),
  /** GET /v1/ads/{id}/video: A video ad's video. */
  video: (params) => address(e("GET", "/v1/ads/{id}/video", [], "optionalSignIn", true), params),
  /** GET /v1/admin/ads: List every ad, those outside their time window too. */
  adminList: (params, body) => call(e("GET", "/v1/admin/ads", ["position", "page", "size"], "admin", false), params, body),
  /** POST /v1/admin/ads: Add an ad with its picture (JPEG, PNG, WebP, GIF) or video (MP4, MOV, WebM, MKV). */
  create: (params, body) => call(e("POST", "/v1/admin/ads", [], "admin", false), params, body),
  /** PATCH /v1/admin/ads/{id}: Change an ad; fields left out stay, null clears. */
  update: (params, body) => call(e("PATCH", "/v1/admin/ads/{id}", [], "admin", false), params, body),
  /** PUT /v1/admin/ads/{id}/media: Replace an ad's picture or video (a video makes it a video ad, a picture an image ad). */
  replaceMedia: (params, body) => call(e("PUT", "/v1/admin/ads/{id}/media", [], "admin", false), params, body),
  /** DELETE /v1/admin/ads/{id}: Delete an ad with its files. */
  delete: (params, body) => call(e("DELETE", "/v1/admin/ads/{id}", [], "admin", false), params, body),
  /** PUT /v1/admin/ads/order: Order the ads of a position. */
  reorder: (params, body) => call(e("PUT", "/v1/admin/ads/order", [], "admin", false), params, body),
};

export const home = {
  /** GET /v1/home: The home screen's modules in order, empty ones left out; personal when signed in; sent with an ETag (304 to If-None-Match). */
  home: (params, body) => call(e("GET", "/v1/home", [], "optionalSignIn", false), params, body),
  /** GET /v1/home/layout: One's order of the home modules, hidden ones included. */
  layout: (params, body) => call(e("GET", "/v1/home/layout", [], "signedIn", false), params, body),
  /** PUT /v1/home/layout: Set one's order of the home modules and which to hide; modules left out follow in the usual order. */
  saveLayout: (params, body) => call(e("PUT", "/v1/home/layout", [], "signedIn", false), params, body),
  /** DELETE /v1/home/layout: Go back to the usual order of the home modules. */
  resetLayout: (params, body) => call(e("DELETE", "/v1/home/layout", [], "signedIn", false), params, body),
  /** GET /v1/admin/home: See which home modules show, in what order. */
  settings: (params, body) => call(e("GET", "/v1/admin/home", [], "admin", false), params, body),
  /** PUT /v1/admin/home: Choose which home modules show, in what order, with what title and how many items. */
  saveSettings: (params, body) => call(e("PUT", "/v1/admin/home", [], "admin", false), params, body),
};

export const searchHistory = {
  /** GET /v1/searches/hot: What people searched for and played most in the last seven days, best first (recomputed every few minutes; sent with an ETag). */
  hot: (params, body) => call(e("GET", "/v1/searches/hot", [], "anyone", false), params, body),
  /** GET /v1/searches/history: One's own recent searches, newest first (at most 50). */
  history: (params, body) => call(e("GET", "/v1/searches/history", [], "signedIn", false), params, body),
  /** POST /v1/searches/history: Keep a search in one's history (the same words again move to the top) and count it for hot searches. */
  record: (params, body) => call(e("POST", "/v1/searches/history", [], "signedIn", false), params, body),
  /** DELETE /v1/searches/history/{id}: Forget one search of one's history. */
  delete: (params, body) => call(e("DELETE", "/v1/searches/history/{id}", [], "signedIn", false), params, body),
  /** DELETE /v1/searches/history: Forget one's whole search history. */
  clear: (params, body) => call(e("DELETE", "/v1/searches/history", [], "signedIn", false), params, body),
};

export const categories = {
  /** GET /v1/categories: Genres with a picture and their song, album and sheet counts, those with most songs first. */
  list: (params, body) => call(e("GET", "/v1/categories", ["page", "size"], "optionalSignIn", false), params, body),
};

export const appVersions = {
  /** GET /v1/app_versions/latest: The newest version for a platform when it is newer than the app's own (`data` is null when the app is up to date). */
  latest: (params, body) => call(e("GET", "/v1/app_versions/latest", ["platform", "version"], "optionalSignIn", false), params, body),
  /** GET /v1/admin/app_versions: List the published versions, newest first. */
  adminList: (params, body) => call(e("GET", "/v1/admin/app_versions", ["platform", "page", "size"], "admin", false), params, body),
  /** POST /v1/admin/app_versions: Publish a version of an app. */
  publish: (params, body) => call(e("POST", "/v1/admin/app_versions", [], "admin", false), params, body),
  /** PATCH /v1/admin/app_versions/{id}: Change a published version's notes, address or whether it is forced. */
  update: (params, body) => call(e("PATCH", "/v1/admin/app_versions/{id}", [], "admin", false), params, body),
  /** DELETE /v1/admin/app_versions/{id}: Withdraw a published version. */
  delete: (params, body) => call(e("DELETE", "/v1/admin/app_versions/{id}", [], "admin", false), params, body),
};

export const terms = {
  /** GET /v1/terms: The current privacy policy and user agreement with their text, and whether one has accepted them. */
  current: (params, body) => call(e("GET", "/v1/terms", [], "optionalSignIn", false), params, body),
  /** POST /v1/terms/acceptances: Accept versions of the documents (by id, as `GET v1/terms` gives them); accepting one again keeps the first time. */
  accept: (params, body) => call(e("POST", "/v1/terms/acceptances", [], "signedIn", false), params, body),
  /** GET /v1/terms/acceptances: Which versions one has accepted and when, newest first. */
  acceptances: (params, body) => call(e("GET", "/v1/terms/acceptances", [], "signedIn", false), params, body),
  /** GET /v1/admin/terms: List every version of the documents, newest first. */
  adminList: (params, body) => call(e("GET", "/v1/admin/terms", ["kind", "page", "size"], "admin", false), params, body),
  /** POST /v1/admin/terms: Publish a new version of a document; everyone must accept it again. */
  publish: (params, body) => call(e("POST", "/v1/admin/terms", [], "admin", false), params, body),
};

export const videos = {
  /** GET /v1/videos: Videos, newest or hottest (most liked and clicked) first. */
  list: (params, body) => call(e("GET", "/v1/videos", ["page", "size", "order"], "optionalSignIn", false), params, body),
  /** GET /v1/videos/{id}: A video with its song; a view counts as a click once per viewer in 30 seconds. */
  detail: (params, body) => call(e("GET", "/v1/videos/{id}", [], "optionalSignIn", false), params, body),
  /** GET /v1/videos/{id}/stream: The video's file, or (`format=mp4`) a fragmented H.264/AAC MP4 made as it streams, for browsers that cannot play the original. */
  stream: (params) => address(e("GET", "/v1/videos/{id}/stream", ["format", "timeOffset"], "optionalSignIn", true), params),
  /** GET /v1/videos/{id}/cover: A still taken from the video (JPEG). */
  cover: (params) => address(e("GET", "/v1/videos/{id}/cover", [], "optionalSignIn", true), params),
  /** POST /v1/videos: Add a video (MP4, MKV, WebM or MOV, checked by its content); text fields `title` and `artist` name it, else its tags or file name do. */
  upload: (params, body) => call(e("POST", "/v1/videos", [], "admin", false), params, body),
  /** DELETE /v1/videos/{id}: Delete an uploaded video (a scanned one leaves when its file leaves the videos folder). */
  delete: (params, body) => call(e("DELETE", "/v1/videos/{id}", [], "admin", false), params, body),
  /** PUT /v1/videos/{id}/like: Like a video. */
  like: (params, body) => call(e("PUT", "/v1/videos/{id}/like", [], "signedIn", false), params, body),
  /** DELETE /v1/videos/{id}/like: Stop liking a video. */
  unlike: (params, body) => call(e("DELETE", "/v1/videos/{id}/like", [], "signedIn", false), params, body),
  /** GET /v1/videos/scan: See whether a videos scan runs and what the last one did. */
  scanStatus: (params, body) => call(e("GET", "/v1/videos/scan", [], "adminOrFirstRun", false), params, body),
  /** POST /v1/videos/scan: Start a scan of the videos folders. */
  startScan: (params, body) => call(e("POST", "/v1/videos/scan", [], "adminOrFirstRun", false), params, body),
};

export const recommendations = {
  /** GET /v1/recommendations/songs: One's 30 songs of the day: the same all day, new at the server's midnight; never a song one is not interested in or played in the last day. */
  daily: (params, body) => call(e("GET", "/v1/recommendations/songs", [], "signedIn", false), params, body),
  /** GET /v1/radio/next: The next songs of one's personal radio, an endless mix of new and favourite songs; never a song one is not interested in or played in the last day. */
  radio: (params, body) => call(e("GET", "/v1/radio/next", ["count", "size"], "signedIn", false), params, body),
  /** GET /v1/songs/{id}/similar: Songs like this one: those people put in the same sheets and play in the same sittings, then the same artist, album and genre. */
  similarSongs: (params, body) => call(e("GET", "/v1/songs/{id}/similar", ["size"], "optionalSignIn", false), params, body),
  /** GET /v1/sheets/{id}/similar: Public sheets like this one: those sharing most songs, then tags. */
  similarSheets: (params, body) => call(e("GET", "/v1/sheets/{id}/similar", ["size"], "optionalSignIn", false), params, body),
  /** GET /v1/recommendations/dislikes: Songs one said one is not interested in, newest first. */
  dislikes: (params, body) => call(e("GET", "/v1/recommendations/dislikes", ["page", "size"], "signedIn", false), params, body),
  /** POST /v1/recommendations/dislikes: Not interested: the song is never recommended to one again (nor on today's list). */
  dislike: (params, body) => call(e("POST", "/v1/recommendations/dislikes", [], "signedIn", false), params, body),
  /** DELETE /v1/recommendations/dislikes/{id}: Take back "not interested" (the path holds the song's id). */
  undislike: (params, body) => call(e("DELETE", "/v1/recommendations/dislikes/{id}", [], "signedIn", false), params, body),
};

export const appPasswords = {
  /** POST /v1/users/{id}/app_passwords: Make an app password for one of one's devices; the answer is the only time it is shown. */
  create: (params, body) => call(e("POST", "/v1/users/{id}/app_passwords", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/app_passwords: One's app passwords (names and dates, never the secrets). */
  list: (params, body) => call(e("GET", "/v1/users/{id}/app_passwords", [], "signedIn", false), params, body),
  /** DELETE /v1/users/{id}/app_passwords/{passwordId}: Revoke one of one's app passwords: the app using it is signed out at once. */
  revoke: (params, body) => call(e("DELETE", "/v1/users/{id}/app_passwords/{passwordId}", [], "signedIn", false), params, body),
};

export const messages = {
  /** POST /v1/messages: Send someone a message: text, a picture (an uploaded file) or a song, sheet or video. */
  send: (params, body) => call(e("POST", "/v1/messages", [], "signedIn", false), params, body),
  /** DELETE /v1/messages/{id}: Delete a message for oneself (the other person keeps it). */
  delete: (params, body) => call(e("DELETE", "/v1/messages/{id}", [], "signedIn", false), params, body),
  /** GET /v1/messages/unread: How many messages are unread, and in how many conversations. */
  unread: (params, body) => call(e("GET", "/v1/messages/unread", [], "signedIn", false), params, body),
  /** GET /v1/conversations: One's conversations, the one with the newest message first; deep pages by cursor. */
  conversations: (params, body) => call(e("GET", "/v1/conversations", ["userId", "cursor", "page", "size"], "signedIn", false), params, body),
  /** GET /v1/conversations/{id}: One conversation. */
  conversation: (params, body) => call(e("GET", "/v1/conversations/{id}", [], "signedIn", false), params, body),
  /** GET /v1/conversations/{id}/messages: A conversation's messages, oldest first: the newest ones, or those `before` or `after` a message. */
  messages: (params, body) => call(e("GET", "/v1/conversations/{id}/messages", ["before", "after", "size"], "signedIn", false), params, body),
  /** POST /v1/conversations/{id}/read: Mark a conversation read up to a message (all of it without one). */
  markRead: (params, body) => call(e("POST", "/v1/conversations/{id}/read", [], "signedIn", false), params, body),
  /** DELETE /v1/conversations/{id}: Delete a conversation for oneself: its messages so far are gone for one; a new message opens it again. */
  deleteConversation: (params, body) => call(e("DELETE", "/v1/conversations/{id}", [], "signedIn", false), params, body),
  /** GET /v1/message_settings: Who may send one messages. */
  settings: (params, body) => call(e("GET", "/v1/message_settings", [], "signedIn", false), params, body),
  /** PUT /v1/message_settings: Allow messages from everyone (who is not blocked) or only from people one follows. */
  saveSettings: (params, body) => call(e("PUT", "/v1/message_settings", [], "signedIn", false), params, body),
};

export const events = {
  /** GET /v1/events: Server-Sent Events for the chat token's person: `message`, `read`, `conversation`, `notification`, `queue`, `likes`; resumable with `Last-Event-ID` for a day, then `reload`; a comment line every 25 s; one stream per device. */
  stream: (params) => address(e("GET", "/v1/events", ["token", "lastEventId"], "chatToken", true), params),
  /** POST /v1/events/token: A new chat token for this device's session (the one from signing in stops working). */
  token: (params, body) => call(e("POST", "/v1/events/token", [], "signedIn", false), params, body),
};
