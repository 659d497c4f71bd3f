// Addresses of the server's pictures: models carry paths relative to the server root (`v1/albums/2/cover`).
const root = new URL("/", location.href);
const SIZES = [64, 128, 256, 512, 1024];

/** The absolute address of a media path, at a size the server keeps (it snaps to 64 ... 1024). */
export function media(uri, size) {
  if (!uri) return "";
  const url = new URL(uri, root);
  if (size) url.searchParams.set("size", String(SIZES.find((s) => s >= size) ?? 1024));
  return url.href;
}

/** The picture of a song, album, sheet or artist at `size` CSS pixels (twice that on sharp screens). */
export function cover(thing, size = 128) {
  const scale = Math.min(2, globalThis.devicePixelRatio || 1);
  return media(thing?.icon || thing?.album?.icon, Math.round(size * scale));
}
