#!/usr/bin/env python3
"""Prints the Subsonic benchmark's table from results.env (key=value lines written by run.sh).

Targets (issue 18): CloudMusic at least 100 times supysonic's requests per second on each call, and a p99 under
20 ms. Exit status 3 when a target is missed (or a figure is missing), else 0.
"""
import sys

ENDPOINTS = ["getAlbumList2", "search3", "getArtists", "getAlbum", "stream"]


def ms(text):
    """wrk's latency ("812.00us", "1.52ms", "1.20s", "2.00m") in milliseconds."""
    if not text:
        return None
    for suffix, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60000.0)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


def main():
    figures = {}
    with open(sys.argv[1]) as handle:
        for line in handle:
            key, _, value = line.strip().partition("=")
            figures[key] = value
    missed = False
    print(f"{'call':<15}{'CloudMusic req/s':>18}{'p50':>10}{'p99':>10}{'supysonic req/s':>18}{'p50':>10}{'p99':>10}{'ratio':>10}  verdict")
    for name in ENDPOINTS:
        ours = float(figures.get(f"cloudmusic_{name}_rps") or 0)
        theirs = float(figures.get(f"supysonic_{name}_rps") or 0)
        p99 = ms(figures.get(f"cloudmusic_{name}_p99"))
        ratio = ours / theirs if theirs else None
        ok = ratio is not None and ratio >= 100 and p99 is not None and p99 < 20
        missed |= not ok
        print(f"{name:<15}{ours:>18.1f}{figures.get(f'cloudmusic_{name}_p50', '-'):>10}"
              f"{figures.get(f'cloudmusic_{name}_p99', '-'):>10}{theirs:>18.1f}"
              f"{figures.get(f'supysonic_{name}_p50', '-'):>10}{figures.get(f'supysonic_{name}_p99', '-'):>10}"
              f"{(f'{ratio:.0f}x' if ratio else '-'):>10}  {'PASS' if ok else 'MISS'}")
    return 3 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
