#!/usr/bin/env python3
"""Times mpd's first database update of a music folder (the `mpd` part of Benchmarks/library/run.sh).

    mpd-scan.py --mpd /usr/bin/mpd --music DIR --work DIR --expect N [--timeout 900]

Writes WORK/mpd.conf (music_directory DIR, db_file WORK/mpd.db, a null audio output, loopback on a
free port, no zeroconf, no state file), removes any old database, and starts `mpd --no-daemon` in the
foreground. mpd finds no database file, so it starts a full update at once (the script asks for one
with `update` only if it has not). The script speaks the MPD protocol itself: it connects as soon as
the port answers, then waits with `idle database update` until `status` no longer says
`updating_db` and `stats` counts N songs. The time is from starting mpd to that moment: it includes
mpd's startup (a few ms) and writing the database file, as the `cloudmusic-server scan` wall time
includes its startup and database. mpd is stopped by its pid.

Prints one line and key=value figures (mpd_files, mpd_seconds, mpd_files_per_s, mpd_db_bytes).
Exit 0, 1 on failure. Python 3 standard library only.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class MPD:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.settimeout(None)
        self.file = self.sock.makefile("rb")
        greeting = self.file.readline().decode()
        if not greeting.startswith("OK MPD"):
            raise RuntimeError(f"unexpected greeting {greeting!r}")

    def command(self, line):
        self.sock.sendall(line.encode() + b"\n")
        out = {}
        changed = []
        while True:
            row = self.file.readline().decode().rstrip("\n")
            if row == "OK":
                break
            if row.startswith("ACK") or row == "":
                raise RuntimeError(f"{line}: {row or 'connection closed'}")
            k, _, v = row.partition(": ")
            if k == "changed":
                changed.append(v)
            else:
                out[k] = v
        if changed:
            out["changed"] = changed
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mpd", default="mpd")
    ap.add_argument("--music", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--expect", type=int, required=True)
    ap.add_argument("--timeout", type=float, default=900)
    a = ap.parse_args()

    work = os.path.abspath(a.work)
    os.makedirs(f"{work}/playlists", exist_ok=True)
    db = f"{work}/mpd.db"
    for old in (db, f"{work}/mpd.log"):
        if os.path.exists(old):
            os.unlink(old)
    port = free_port()
    conf = f"{work}/mpd.conf"
    with open(conf, "w") as f:
        f.write(f'''music_directory "{os.path.abspath(a.music)}"
playlist_directory "{work}/playlists"
db_file "{db}"
log_file "{work}/mpd.log"
log_level "warning"
bind_to_address "127.0.0.1"
port "{port}"
auto_update "no"
zeroconf_enabled "no"
audio_output {{
  type "null"
  name "null"
}}
''')

    # Stopped by run.sh (SIGTERM): still stop mpd, in the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t0 = time.perf_counter()
    proc = subprocess.Popen([a.mpd, "--no-daemon", conf], stdout=open(f"{work}/mpd.stdout", "w"),
                            stderr=subprocess.STDOUT)
    try:
        deadline = t0 + a.timeout
        client = None
        while client is None:
            if proc.poll() is not None:
                raise RuntimeError(f"mpd exited with status {proc.returncode} (see {work}/mpd.log, mpd.stdout)")
            if time.perf_counter() > deadline:
                raise RuntimeError("mpd did not listen in time")
            try:
                client = MPD(port)
            except OSError:
                time.sleep(0.005)
        asked = False
        while True:
            status = client.command("status")
            stats = client.command("stats")
            songs = int(stats.get("songs", "0"))
            if "updating_db" not in status:
                if songs >= a.expect:
                    break
                if not asked:
                    # No update running and not all songs in: start one (normally mpd already has).
                    client.command("update")
                    asked = True
                    continue
            if time.perf_counter() > deadline:
                raise RuntimeError(f"mpd's update did not finish in {a.timeout} s ({songs} songs)")
            client.command("idle database update")
        t1 = time.perf_counter()
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu_s = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        seconds = t1 - t0
        db_bytes = os.path.getsize(db) if os.path.exists(db) else 0
        rate = songs / seconds
        print(f"mpd: {songs} songs in {seconds:.3f} s ({rate:.0f} files/s) from start to the end of its "
              f"update{'' if not asked else ' (update asked)'}; {cpu_s:.2f} CPU s; database {db_bytes} bytes", file=sys.stderr)
        print(f"mpd_files={songs}")
        print(f"mpd_seconds={seconds:.3f}")
        print(f"mpd_files_per_s={rate:.0f}")
        print(f"mpd_db_bytes={db_bytes}")
        print(f"mpd_cpu_s={cpu_s:.2f}")
        print(f"mpd_update_asked={int(asked)}")
        return 0
    except RuntimeError as e:
        print(f"mpd-scan.py: {e}", file=sys.stderr)
        return 1
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    sys.exit(main())
