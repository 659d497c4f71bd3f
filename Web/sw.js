// The service worker: the app shell offline, downloaded songs (with Range) offline, and the last answers of
// the API when the server cannot be reached. The server puts the build and the shell above this line: the
// files of the first render, kept at install; every other file of the app is kept when it is first used, or
// all at once when the person downloads a song (then they mean to use the app offline).
/* global self, caches */
const BUILD = self.CLOUDMUSIC_BUILD || "dev";
const FILES = self.CLOUDMUSIC_FILES || [];
const APP = self.CLOUDMUSIC_APP || [];
const SHELL = `cm-shell-${BUILD}`;
const SONGS = "cm-songs";
const API = "cm-api";
const API_LIMIT = 300;
/** News articles kept to read offline and their proxied pictures; news.js chooses what is in it. */
const NEWS = "cm-news";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    await cache.addAll(["/", ...FILES]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Keep the shell before this one for pages still running it; drop older ones.
    const shells = (await caches.keys()).filter((name) => name.startsWith("cm-shell-") && name !== SHELL);
    await Promise.all(shells.slice(0, -1).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// A song downloaded to play offline: the rest of the app is kept too, so every screen opens offline.
self.addEventListener("message", (event) => {
  if (event.data === "keep-app") event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(APP)));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(shellFile(request));
  } else if (/^\/v1\/songs\/[^/]+\/stream$/.test(url.pathname)) {
    event.respondWith(song(request));
  } else if (/^\/v1\/news\/(articles\/[^/]+|images\/[^/]+)$/.test(url.pathname)) {
    event.respondWith(keptNews(request));
  } else if (/^\/v1\/(songs|albums|sheets|users)\/[^/]+\/(cover|avatar)$/.test(url.pathname)) {
    event.respondWith(picture(request));
  } else if (url.pathname.startsWith("/v1/") && !/^\/v1\/(admin|queue|plays|sessions|library|events)/.test(url.pathname)) {
    event.respondWith(api(request));
  }
});

/** Pages: the network's index.html, else the cached one (every page address is the same app). */
async function page(request) {
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(SHELL)).put("/", response.clone());
    return response;
  } catch {
    return (await caches.match("/", { cacheName: SHELL })) || (await caches.match("/")) || Response.error();
  }
}

/** Hashed files never change: the cache first. */
async function shellFile(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && request.url.includes(`/assets/${BUILD}/`)) (await caches.open(SHELL)).put(request, response.clone());
  return response;
}

/** A downloaded song from the Cache Storage, honouring Range as the audio element asks; else the network. */
async function song(request) {
  const cached = await caches.match(request.url, { cacheName: SONGS });
  if (!cached) return fetch(request);
  const blob = await cached.blob();
  const type = cached.headers.get("Content-Type") || blob.type || "audio/mpeg";
  const size = blob.size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("Range") || "");
  if (!range || (range[1] === "" && range[2] === "")) {
    return new Response(blob, { status: 200, headers: { "Content-Type": type, "Content-Length": String(size), "Accept-Ranges": "bytes" } });
  }
  let start;
  let end;
  if (range[1] === "") {
    start = Math.max(0, size - Number(range[2]));
    end = size - 1;
  } else {
    start = Number(range[1]);
    end = range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  }
  return new Response(blob.slice(start, end + 1, type), {
    status: 206,
    headers: {
      "Content-Type": type,
      "Content-Length": String(end - start + 1),
      "Content-Range": `bytes ${start}-${end}/${size}`,
      "Accept-Ranges": "bytes",
    },
  });
}

/** Covers: the network (and the browser's HTTP cache), else a downloaded song's copy. */
async function picture(request) {
  try {
    return await fetch(request);
  } catch {
    return (await caches.match(request.url, { cacheName: SONGS })) || Response.error();
  }
}

/** A news article or picture: the network first, else the copy news.js kept, else the API's last answer. */
async function keptNews(request) {
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get("Content-Type") || "").includes("json")) {
      const cache = await caches.open(API);
      await cache.put(request.url, response.clone());
      trim(cache);
    }
    return response;
  } catch {
    const cached = (await caches.match(request.url, { cacheName: NEWS })) || (await caches.match(request.url, { cacheName: API }));
    if (cached) return cached;
    if (new URL(request.url).pathname.startsWith("/v1/news/images/")) return Response.error();
    return api(request);
  }
}

/** The API: the network first; its last good answer when the server cannot be reached. */
async function api(request) {
  try {
    const response = await fetch(request);
    if (response.ok && (response.headers.get("Content-Type") || "").includes("json")) {
      const cache = await caches.open(API);
      await cache.put(request.url, response.clone());
      trim(cache);
    }
    return response;
  } catch {
    const cached = (await caches.match(request.url, { cacheName: SONGS })) || (await caches.match(request.url, { cacheName: API }));
    // In the page's language, which its requests carry (as the server's own refusals are).
    const chinese = (request.headers.get("Accept-Language") || "").toLowerCase().startsWith("zh");
    const message = chinese ? "网络已断开，这个页面没有保存在设备上。" : "Offline: this page was not saved on the device.";
    return cached || new Response(JSON.stringify({ status: 503, message }),
      { status: 503, headers: { "Content-Type": "application/json; charset=utf-8" } });
  }
}

let trimming = false;
async function trim(cache) {
  if (trimming) return;
  trimming = true;
  try {
    const keys = await cache.keys();
    await Promise.all(keys.slice(0, Math.max(0, keys.length - API_LIMIT)).map((key) => cache.delete(key)));
  } finally {
    trimming = false;
  }
}
