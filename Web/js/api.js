// Web/js/api.js — generated from the endpoint declarations in Sources/MusicCore/API; do not edit.
import { call, address } from "./http.js";
const e = (method, path, query, access, media) => ({ method, path, query, access, media });

export const server = {
  /** GET /v1/server: What this server is: name and versions. */
  info: (params, body) => call(e("GET", "/v1/server", [], "anyone", false), params, body),
  /** GET /health: Whether the server is up. */
  health: (params, body) => call(e("GET", "/health", [], "anyone", false), params, body),
};

export const catalog = {
  /** GET /v1/songs: Songs, paged, filtered and sorted. */
  songs: (params, body) => call(e("GET", "/v1/songs", ["page", "size", "artist", "album", "genre", "sort"], "anyone", false), params, body),
  /** GET /v1/songs/{id}: A song. */
  song: (params, body) => call(e("GET", "/v1/songs/{id}", [], "anyone", false), params, body),
  /** GET /v1/songs/{id}/lyric: A song's lyric as raw text and parsed lines and words. */
  lyric: (params, body) => call(e("GET", "/v1/songs/{id}/lyric", [], "anyone", false), params, body),
  /** GET /v1/songs/{id}/stream: The audio, with Range, ETag and 304 support. */
  stream: (params) => address(e("GET", "/v1/songs/{id}/stream", ["format", "maxBitRate", "timeOffset"], "anyone", true), params),
  /** GET /v1/songs/{id}/cover: The song's cover picture. */
  songCover: (params) => address(e("GET", "/v1/songs/{id}/cover", ["size"], "anyone", true), params),
  /** GET /v1/albums: Albums, paged and sorted. */
  albums: (params, body) => call(e("GET", "/v1/albums", ["page", "size", "sort", "artist"], "anyone", false), params, body),
  /** GET /v1/albums/{id}: An album with its songs. */
  album: (params, body) => call(e("GET", "/v1/albums/{id}", [], "anyone", false), params, body),
  /** GET /v1/albums/{id}/cover: The album's cover picture. */
  albumCover: (params) => address(e("GET", "/v1/albums/{id}/cover", ["size"], "anyone", true), params),
  /** GET /v1/artists: Artists, paged and sorted. */
  artists: (params, body) => call(e("GET", "/v1/artists", ["page", "size", "sort"], "anyone", false), params, body),
  /** GET /v1/artists/{id}: An artist with albums and songs. */
  artist: (params, body) => call(e("GET", "/v1/artists/{id}", [], "anyone", false), params, body),
  /** GET /v1/genres: Genres with their song counts. */
  genres: (params, body) => call(e("GET", "/v1/genres", ["page", "size"], "anyone", false), params, body),
  /** GET /v1/searches: Songs, albums and artists matching a text. */
  search: (params, body) => call(e("GET", "/v1/searches", ["q", "query", "size"], "anyone", false), params, body),
  /** GET /v1/searches/suggests: Completions while typing. */
  suggestions: (params, body) => call(e("GET", "/v1/searches/suggests", ["q", "query", "size"], "anyone", false), params, body),
};

export const accounts = {
  /** POST /v1/users: Signs up. */
  register: (params, body) => call(e("POST", "/v1/users", [], "anyone", false), params, body),
  /** GET /v1/users/{id}: A person's profile. */
  profile: (params, body) => call(e("GET", "/v1/users/{id}", [], "optionalSignIn", false), params, body),
  /** PATCH /v1/users/{id}: Changes one's own profile. */
  updateProfile: (params, body) => call(e("PATCH", "/v1/users/{id}", [], "signedIn", false), params, body),
  /** POST /v1/sessions: Signs in with a password or a code. */
  login: (params, body) => call(e("POST", "/v1/sessions", [], "anyone", false), params, body),
  /** GET /v1/sessions: One's signed-in devices. */
  sessions: (params, body) => call(e("GET", "/v1/sessions", [], "signedIn", false), params, body),
  /** DELETE /v1/sessions/current: Signs this device out. */
  logout: (params, body) => call(e("DELETE", "/v1/sessions/current", [], "signedIn", false), params, body),
  /** POST /v1/codes: Sends a code to a phone or email. */
  sendCode: (params, body) => call(e("POST", "/v1/codes", [], "anyone", false), params, body),
  /** POST /v1/codes/check: Checks a code without using it. */
  checkCode: (params, body) => call(e("POST", "/v1/codes/check", [], "anyone", false), params, body),
  /** POST /v1/users/reset_password: Sets a new password with a code. */
  resetPassword: (params, body) => call(e("POST", "/v1/users/reset_password", [], "anyone", false), params, body),
  /** GET /v1/users/{id}/avatar: A person's avatar. */
  avatar: (params) => address(e("GET", "/v1/users/{id}/avatar", [], "optionalSignIn", true), params),
};

export const sheets = {
  /** GET /v1/sheets: Public sheets, newest or hottest first. */
  list: (params, body) => call(e("GET", "/v1/sheets", ["page", "size", "order"], "optionalSignIn", false), params, body),
  /** GET /v1/searches/sheets: Public sheets matching a text. */
  search: (params, body) => call(e("GET", "/v1/searches/sheets", ["query", "page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets: Creates a sheet. */
  create: (params, body) => call(e("POST", "/v1/sheets", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}: A sheet with its first songs. */
  detail: (params, body) => call(e("GET", "/v1/sheets/{id}", ["songs"], "optionalSignIn", false), params, body),
  /** PATCH /v1/sheets/{id}: Changes one's own sheet. */
  update: (params, body) => call(e("PATCH", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}: Deletes one's own sheet. */
  delete: (params, body) => call(e("DELETE", "/v1/sheets/{id}", [], "signedIn", false), params, body),
  /** GET /v1/sheets/{id}/cover: The sheet's own cover picture. */
  cover: (params) => address(e("GET", "/v1/sheets/{id}/cover", [], "optionalSignIn", true), params),
  /** GET /v1/sheets/{id}/songs: A sheet's songs, paged. */
  songs: (params, body) => call(e("GET", "/v1/sheets/{id}/songs", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/sheets/{id}/relations: Adds songs to one's own sheet. */
  addSongs: (params, body) => call(e("POST", "/v1/sheets/{id}/relations", [], "signedIn", false), params, body),
  /** DELETE /v1/sheets/{id}/relations/{songId}: Takes a song out of one's own sheet. */
  removeSong: (params, body) => call(e("DELETE", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PATCH /v1/sheets/{id}/relations/{songId}: Moves a song inside one's own sheet. */
  moveSong: (params, body) => call(e("PATCH", "/v1/sheets/{id}/relations/{songId}", [], "signedIn", false), params, body),
  /** PUT /v1/songs/{id}/like: Puts a song in "I like". */
  likeSong: (params, body) => call(e("PUT", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** DELETE /v1/songs/{id}/like: Takes a song out of "I like". */
  unlikeSong: (params, body) => call(e("DELETE", "/v1/songs/{id}/like", [], "signedIn", false), params, body),
  /** GET /v1/users/{id}/create: The sheets a person made. */
  created: (params, body) => call(e("GET", "/v1/users/{id}/create", ["page", "size"], "optionalSignIn", false), params, body),
  /** GET /v1/users/{id}/collect: The sheets a person collected. */
  collected: (params, body) => call(e("GET", "/v1/users/{id}/collect", ["page", "size"], "optionalSignIn", false), params, body),
  /** POST /v1/collections: Collects someone else's public sheet. */
  collect: (params, body) => call(e("POST", "/v1/collections", [], "signedIn", false), params, body),
  /** DELETE /v1/collections/{id}: Lets a collected sheet go. */
  uncollect: (params, body) => call(e("DELETE", "/v1/collections/{id}", [], "signedIn", false), params, body),
  /** POST /v1/plays: Reports that a song was played. */
  reportPlay: (params, body) => call(e("POST", "/v1/plays", [], "signedIn", false), params, body),
  /** GET /v1/plays: One's play history. */
  history: (params, body) => call(e("GET", "/v1/plays", ["order", "page", "size"], "signedIn", false), params, body),
  /** GET /v1/queue: One's saved play queue. */
  queue: (params, body) => call(e("GET", "/v1/queue", [], "signedIn", false), params, body),
  /** PUT /v1/queue: Saves one's play queue; an older baseVersion is refused with 409. */
  saveQueue: (params, body) => call(e("PUT", "/v1/queue", [], "signedIn", false), params, body),
};
