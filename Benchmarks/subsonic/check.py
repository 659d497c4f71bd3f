#!/usr/bin/env python3
"""Checks that both servers answer every measured call, and shows what each answers (items and bytes), so a
ratio never compares a full answer with an error or an empty one. Subsonic errors come with HTTP 200, which
wrk counts as success: this is where they are caught.

usage: check.py URLS_FILE

URLS_FILE has one "server method url [header]" line per measured call (run.sh writes it). Exit status 1 when
a call fails (HTTP error, status "failed", a stream that is not the song's bytes), else 0. Differences in
item counts between the servers are printed as warnings.
"""
import json
import sys
import urllib.request


def fetch(url, header):
    request = urllib.request.Request(url)
    if header:
        name, _, value = header.partition(":")
        request.add_header(name.strip(), value.strip())
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def items(method, answer):
    """What the answer holds, as "name=count" pairs."""
    if method == "getAlbumList2":
        return {"albums": len(answer["albumList2"].get("album", []))}
    if method.startswith("search3"):
        result = answer["searchResult3"]
        return {kind: len(result.get(kind, [])) for kind in ("artist", "album", "song")}
    if method == "getArtists":
        return {"artists": sum(len(index.get("artist", [])) for index in answer["artists"].get("index", []))}
    if method == "getAlbum":
        return {"songs": len(answer["album"].get("song", []))}
    return {}


def main():
    failed = False
    seen = {}
    for line in open(sys.argv[1]):
        server, method, url, *rest = line.rstrip("\n").split("\t")
        header = rest[0] if rest else ""
        try:
            status, content_type, body = fetch(url, header)
        except Exception as error:  # an HTTP error status, a refused connection, a timeout
            print(f"  {server:<10} {method:<16} FAILED: {error}")
            failed = True
            continue
        if method == "stream":
            counts = {"status": status, "bytes": len(body)}
            ok = status in (200, 206) and content_type.startswith("audio/") and len(body) > 0
        else:
            answer = json.loads(body)["subsonic-response"]
            ok = answer.get("status") == "ok"
            counts = items(method, answer) if ok else {"error": answer.get("error")}
        failed |= not ok
        seen.setdefault(method, {})[server] = counts
        shown = " ".join(f"{key}={value}" for key, value in counts.items())
        print(f"  {server:<10} {method:<16} {'ok' if ok else 'FAILED'}  {len(body):>7} bytes  {shown}")
    for method, answers in seen.items():
        if len(answers) == 2 and len({json.dumps(counts, sort_keys=True) for counts in answers.values()}) > 1:
            print(f"  warning: {method}: the servers answer different items: {answers}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
