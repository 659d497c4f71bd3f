// Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
import { call, address } from "./http.js";
const e = (method, path, query, access, media) => ({ method, path, query, access, media });

export const server = {
  /** GET /v1/server: What this server is. */
  info: (params, body) => call(e("GET", "/v1/server", [], "anyone", false), params, body),
  /** GET /health: Liveness check. */
  health: (params, body) => call(e("GET", "/health", [], "anyone", false), params, body),
};

export const catalog = {
  /** GET /v1/songs: Songs, paged and sorted. */
  songs: (params, body) => call(e("GET", "/v1/songs", ["page", "size", "artist", "album", "genre", "sort"], "anyone", false), params, body),
  /** GET /v1/songs/{id}: A song, with its raw lyric text. */
  song: (params, body) => call(e("GET", "/v1/songs/{id}", [], "anyone", false), params, body),
  /** GET /v1/songs/{id}/lyric: A song's lyric: raw text and parsed lines with word timings. */
  lyric: (params, body) => call(e("GET", "/v1/songs/{id}/lyric", [], "anyone", false), params, body),
  /** GET /v1/songs/{id}/stream: The song's audio: the original file (Range, ETag, 304) or a live transcode. */
  stream: (params) => address(e("GET", "/v1/songs/{id}/stream", ["format", "maxBitRate", "timeOffset"], "anyone", true), params),
  /** GET /v1/songs/{id}/cover: The song's cover: its embedded picture, else its album's. */
  songCover: (params) => address(e("GET", "/v1/songs/{id}/cover", ["size"], "anyone", true), params),
  /** GET /v1/albums: Albums, paged and sorted. */
  albums: (params, body) => call(e("GET", "/v1/albums", ["page", "size", "sort", "artist"], "anyone", false), params, body),
  /** GET /v1/albums/{id}: An album with its songs in disc and track order. */
  album: (params, body) => call(e("GET", "/v1/albums/{id}", [], "anyone", false), params, body),
  /** GET /v1/albums/{id}/cover: The album's cover: the folder image, else an embedded picture. */
  albumCover: (params) => address(e("GET", "/v1/albums/{id}/cover", ["size"], "anyone", true), params),
  /** GET /v1/artists: Artists, paged and sorted. */
  artists: (params, body) => call(e("GET", "/v1/artists", ["page", "size", "sort"], "anyone", false), params, body),
  /** GET /v1/artists/{id}: An artist with albums and most played songs. */
  artist: (params, body) => call(e("GET", "/v1/artists/{id}", [], "anyone", false), params, body),
  /** GET /v1/genres: Genres by number of songs. */
  genres: (params, body) => call(e("GET", "/v1/genres", ["page", "size"], "anyone", false), params, body),
  /** GET /v1/searches: Search songs, albums and artists: CJK text by any substring, Latin words by prefix. */
  search: (params, body) => call(e("GET", "/v1/searches", ["q", "size"], "anyone", false), params, body),
  /** GET /v1/searches/suggests: Completions while typing. */
  suggestions: (params, body) => call(e("GET", "/v1/searches/suggests", ["q", "size"], "anyone", false), params, body),
};

export const accounts = {
  /** POST /v1/users: Sign up with a phone number or email, a password, a nickname and (unless the server runs with --signup-codes off) a 'register' code sent to that phone or email; the first user becomes an administrator. */
  register: (params, body) => call(e("POST", "/v1/users", [], "anyone", false), params, body),
  /** GET /v1/users/{id}: A user's profile: public fields for others; phone, email and role only for the user themselves (administrators use /v1/admin/users). */
  profile: (params, body) => call(e("GET", "/v1/users/{id}", [], "optionalSignIn", false), params, body),
  /** PATCH /v1/users/{id}: Change one's own profile (absent fields stay; null or empty text clears). */
  updateProfile: (params, body) => call(e("PATCH", "/v1/users/{id}", [], "signedIn", false), params, body),
  /** POST /v1/sessions: Sign in with a password or a login code; unknown accounts and wrong secrets get the same answer. */
  login: (params, body) => call(e("POST", "/v1/sessions", [], "anyone", false), params, body),
  /** GET /v1/sessions: One's own signed-in devices. */
  sessions: (params, body) => call(e("GET", "/v1/sessions", [], "signedIn", false), params, body),
  /** DELETE /v1/sessions/current: Sign out (ends the session that makes the request). */
  logout: (params, body) => call(e("DELETE", "/v1/sessions/current", [], "signedIn", false), params, body),
  /** POST /v1/codes: Send a six-digit code (valid 10 minutes, 5 tries) by SMS or email; the answer is the same whether or not an account exists. At most one a minute and ten a day per phone or email. */
  sendCode: (params, body) => call(e("POST", "/v1/codes", [], "anyone", false), params, body),
  /** POST /v1/codes/check: Check a code without using it up (counts as a try). */
  checkCode: (params, body) => call(e("POST", "/v1/codes/check", [], "anyone", false), params, body),
  /** POST /v1/users/reset_password: Set a new password with a reset code; every session of the account ends. */
  resetPassword: (params, body) => call(e("POST", "/v1/users/reset_password", [], "anyone", false), params, body),
  /** GET /v1/users/{id}/avatar: A user's avatar, a 256x256 JPEG. */
  avatar: (params) => address(e("GET", "/v1/users/{id}/avatar", [], "optionalSignIn", true), params),
};

export const sheets = {
  /** GET /v1/sheets: Public sheets, newest first or most collected first. */
  list: (params, body) => call(e("GET", "/v1/sheets", ["page", "size", "order"], "optionalSignIn", false), params, body),
  /** GET /v1/searches/sheets: Public sheets whose title or tags match what was typed (Latin words by prefix, CJK as substrings), best first; the first 1,000 matches are ranked and counted. */
  search: (params, body) => call(e("GET", "/v1/searches/sheets", ["query", "page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets: Create a sheet (at most 1,000 per person). */
  create: (params, body) => call(e("POST", "/v1/sheets", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}: A sheet with its first songs; a private sheet is a 404 to all but its owner; a view by anyone else counts as a click. */
  detail: (params, body) => call(e("GET", "/v1/sheets/{id}", ["songs"], "optionalSignIn", false), params, body),
  /** PATCH /v1/sheets/{id}: Change one's own sheet (title, detail, tags, privacy); making it private removes it from others' collections. */
  update: (params, body) => call(e("PATCH", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}: Delete one's own sheet (not "I like"). */
  delete: (params, body) => call(e("DELETE", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}/cover: A sheet's uploaded cover (JPEG); without one, the sheet's icon is its first song's album cover. */
  cover: (params) => address(e("GET", "/v1/sheets/{id}/cover", [], "optionalSignIn", true), params),
  /** GET /v1/sheets/{id}/songs: A sheet's songs in order, paged. */
  songs: (params, body) => call(e("GET", "/v1/sheets/{id}/songs", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets/{id}/relations: Add songs to one's own sheet (appended; already present ones are skipped; at most 10,000 songs a sheet). */
  addSongs: (params, body) => call(e("POST", "/v1/sheets/{id}/relations", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}/relations/{songId}: Remove one song from one's own sheet. */
  removeSong: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PATCH /v1/sheets/{id}/relations/{songId}: Move a song to another place in one's own sheet (0 is first). */
  moveSong: (params, body) => call(e("PATCH", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PUT /v1/songs/{id}/like: Like a song: it goes to the top of one's "I like" sheet. */
  likeSong: (params, body) => call(e("PUT", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** DELETE /v1/songs/{id}/like: Stop liking a song. */
  unlikeSong: (params, body) => call(e("DELETE", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/create: Sheets a user made, "I like" first; private ones only for that user. */
  created: (params, body) => call(e("GET", "/v1/users/{id}/create", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/users/{id}/collect: Public sheets a user collected, newest first. */
  collected: (params, body) => call(e("GET", "/v1/users/{id}/collect", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/collections: Collect someone else's public sheet. */
  collect: (params, body) => call(e("POST", "/v1/collections", [], "signedIn", false), params, body),
  /** DELETE /v1/collections/{id}: Uncollect a sheet (id is the sheet's). */
  uncollect: (params, body) => call(e("DELETE", "/v1/collections/{id}", [], "signedIn", false), params, body),
  /** POST /v1/plays: Report that the signed-in person played a song (streams alone do not count; the same song again within 30 s is not counted). */
  reportPlay: (params, body) => call(e("POST", "/v1/plays", [], "signedIn", false), params, body),
  /** GET /v1/plays: One's play history: recently played, or most played. */
  history: (params, body) => call(e("GET", "/v1/plays", ["order", "page", "size"], "signedIn", false), params, body),
  /** GET /v1/queue: One's saved play queue (empty, version 0, when never saved). */
  queue: (params, body) => call(e("GET", "/v1/queue", [], "signedIn", false), params, body),
  /** PUT /v1/queue: Save one's play queue (at most 5,000 songs); with baseVersion, a queue changed elsewhere since is a 409. */
  saveQueue: (params, body) => call(e("PUT", "/v1/queue", [], "signedIn", false), params, body),
};
