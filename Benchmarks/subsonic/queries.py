#!/usr/bin/env python3
"""Writes the distinct search3 queries of the `search3-distinct` measurement, one a line, percent-encoded.

usage: queries.py TRACKS OUTPUT

Each query is the end of one generated title (Benchmarks/library's titles: "Silver Echo Song 1031",
"月光城市之歌 1032"): "Song 1031", "Echo Song 1031", "Silver Echo Song 1031", "之歌 1032", "城市之歌 1032".
Each is a substring of the titles it names, so supysonic (a substring search) and CloudMusic (words as
prefixes) find the same songs: the title itself, and for short numbers the titles whose number starts with
it. Shuffled with a fixed seed; TRACKS 10,000 gives about 27,000 queries, more than one round of the fastest
server sends, so (with the rounds minutes apart) no answer is found in a search cache.
"""
import random
import sys
import urllib.parse

LATIN = ["Morning", "Silver", "River", "Echo", "Golden", "Quiet", "Wild", "Paper", "Neon", "Winter"]
CJK = ["月光", "城市", "河流", "晚风", "星空", "远方", "海边", "故乡", "青春", "雨夜"]


def main():
    tracks, output = int(sys.argv[1]), sys.argv[2]
    queries = []
    for i in range(tracks):
        if i % 3 == 0:
            queries += [f"之歌 {i}", f"{CJK[(i // 10) % 10]}之歌 {i}"]
        else:
            second = LATIN[(i // 10) % 10]
            queries += [f"Song {i}", f"{second} Song {i}", f"{LATIN[i % 10]} {second} Song {i}"]
    random.Random(18).shuffle(queries)
    with open(output, "w") as handle:
        for query in queries:
            handle.write(urllib.parse.quote(query, safe="") + "\n")
    print(len(queries))


if __name__ == "__main__":
    main()
