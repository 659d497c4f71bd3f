// The transport under the generated API client (api.js): addresses, the session token, the envelope, and the
// language the person reads (the server writes its refusals in it).
import { lang } from "./i18n.js";

/** A refused or failed call: `status` is the HTTP status (0 when the server could not be reached), `code`
 * the envelope's status, `message` the server's sentence, meant to be shown to the person. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

let token = null;
let base = new URL("/", location.href).href;

/** Listeners for `unauthorized` (a sent token was refused: the session ended elsewhere). */
export const events = new EventTarget();

export function setToken(value) { token = value || null; }
export function getToken() { return token; }
/** The server's root, for an app served from elsewhere. */
export function setBase(url) { base = new URL(url, location.href).href; }

function build(spec, params = {}) {
  const used = new Set();
  const path = spec.path.replace(/\{(\w+)\}/g, (_, name) => {
    used.add(name);
    const value = params[name];
    if (value === undefined || value === null || value === "") throw new ApiError(400, 400, `Missing ${name}.`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(path.slice(1), base);
  for (const name of spec.query) {
    const value = params[name];
    if (value === undefined || value === null || used.has(name)) continue;
    url.searchParams.set(name, String(value));
  }
  return url;
}

/** The absolute address of a media endpoint (audio, pictures), for `<audio src>` and `<img src>`. */
export function address(spec, params = {}) {
  return build(spec, params).href;
}

/** Calls a JSON endpoint; resolves to the envelope's `data`, rejects with an ApiError. */
export async function call(spec, params = {}, body) {
  const url = build(spec, params);
  // The interface's language, chosen or the browser's, so the server's sentences match the screen.
  const headers = { Accept: "application/json", "Accept-Language": lang() === "zh" ? "zh-CN" : "en" };
  const sent = token && spec.access !== "anyone";
  if (sent) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, { method: spec.method, headers, body: payload });
  } catch {
    throw new ApiError(0, 0, "The server cannot be reached.");
  }
  let envelope = null;
  try {
    envelope = await response.json();
  } catch {
    // Not JSON: a proxy's error page, or an empty answer.
  }
  if (!response.ok) {
    if (response.status === 401 && sent) events.dispatchEvent(new Event("unauthorized"));
    throw new ApiError(
      response.status,
      envelope?.status ?? response.status,
      envelope?.message ?? `The server answered ${response.status}.`,
    );
  }
  return envelope?.data;
}
