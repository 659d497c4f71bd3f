#!/usr/bin/env python3
"""Picks the same album and song on both servers, so getAlbum and stream measure the same work.

usage: pick.py CLOUDMUSIC_BASE CLOUDMUSIC_AUTH SUPYSONIC_BASE SUPYSONIC_AUTH

The album is CloudMusic's newest (getAlbumList2 type=newest); supysonic's is the album of the same name and
artist (found with search3), and the song is the album's first song on both, which must have the same title
and size. Prints shell assignments (cloudmusic_album=..., ...) on stdout; exit status 1 when the two
libraries do not hold the same album or song.
"""
import json
import shlex
import sys
import urllib.parse
import urllib.request


def call(base, auth, method, **parameters):
    query = auth + "".join(f"&{key}={urllib.parse.quote(str(value))}" for key, value in parameters.items())
    with urllib.request.urlopen(f"{base}/rest/{method}.view?{query}", timeout=60) as response:
        answer = json.load(response)["subsonic-response"]
    if answer.get("status") != "ok":
        raise SystemExit(f"pick.py: {base} {method}: {answer.get('error')}")
    return answer


def main():
    cloudmusic, cloudmusic_auth, supysonic, supysonic_auth = sys.argv[1:5]
    newest = call(cloudmusic, cloudmusic_auth, "getAlbumList2", type="newest", size=1)["albumList2"]["album"][0]
    ours = call(cloudmusic, cloudmusic_auth, "getAlbum", id=newest["id"])["album"]
    found = call(supysonic, supysonic_auth, "search3", query=ours["name"], artistCount=0, albumCount=100,
                 songCount=0)["searchResult3"].get("album", [])
    same = [album for album in found if album["name"] == ours["name"] and album.get("artist") == ours.get("artist")]
    if not same:
        raise SystemExit(f"pick.py: supysonic has no album {ours['name']!r} by {ours.get('artist')!r}")
    theirs = call(supysonic, supysonic_auth, "getAlbum", id=same[0]["id"])["album"]
    our_song = ours["song"][0]
    their_song = next((song for song in theirs.get("song", []) if song["title"] == our_song["title"]), None)
    if their_song is None or their_song.get("size") != our_song.get("size"):
        raise SystemExit(f"pick.py: supysonic's album {ours['name']!r} has no song {our_song['title']!r} "
                         f"of {our_song.get('size')} bytes")
    if len(theirs.get("song", [])) != len(ours["song"]):
        raise SystemExit(f"pick.py: the album has {len(ours['song'])} songs on CloudMusic and "
                         f"{len(theirs.get('song', []))} on supysonic")
    for key, value in (("cloudmusic_album", ours["id"]), ("cloudmusic_song", our_song["id"]),
                       ("supysonic_album", theirs["id"]), ("supysonic_song", their_song["id"]),
                       ("album_name", ours["name"]), ("song_title", our_song["title"]),
                       ("song_size", our_song["size"]), ("album_songs", len(ours["song"]))):
        print(f"{key}={shlex.quote(str(value))}")


if __name__ == "__main__":
    main()
