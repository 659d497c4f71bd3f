#!/usr/bin/env python3
"""Start-up time and CPU while playing for the terminal player; see run.sh."""
import argparse, json, os, re, shutil, statistics, subprocess, tempfile, time, uuid

CLK = os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def player_env(home):
    env = dict(os.environ)
    env.update({
        "HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8",
        "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
        "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + home + "/no-bus",
    })
    os.makedirs(home + "/run", mode=0o700, exist_ok=True)
    return env


def startup(args):
    home = tempfile.mkdtemp(prefix="cm-tui-bench-")
    env = player_env(home)
    env["CLOUDMUSIC_EXIT_AFTER_FIRST_FRAME"] = "1"
    player = f"{args.player} --server {args.server} --audio null --no-media-keys"
    own, wall, base = [], [], []
    for i in range(args.runs + 2):
        t0 = time.perf_counter()
        done = subprocess.run(["script", "-qec", player, "/dev/null"], env=env, capture_output=True, text=True)
        elapsed = (time.perf_counter() - t0) * 1000
        t0 = time.perf_counter()
        subprocess.run(["script", "-qec", "true", "/dev/null"], env=env, capture_output=True)
        baseline = (time.perf_counter() - t0) * 1000
        found = re.search(r"first frame after (\d+) ms", done.stdout)
        if done.returncode != 0 or not found:
            raise SystemExit(f"the player did not draw its first frame: {done.stdout[-500:]!r} {done.stderr[-500:]!r}")
        if i < 2:
            continue  # the first runs warm the disk cache and make the client database
        own.append(int(found.group(1)))
        wall.append(elapsed)
        base.append(baseline)
    shutil.rmtree(home, ignore_errors=True)
    return {
        "benchmark": "startup", "runs": args.runs,
        "wall_ms_p50": round(statistics.median(wall), 1), "wall_ms_p95": round(percentile(wall, 95), 1),
        "pty_baseline_ms_p50": round(statistics.median(base), 1),
        "wall_minus_baseline_ms_p50": round(statistics.median(wall) - statistics.median(base), 1),
        "main_to_first_frame_ms_p50": statistics.median(own), "main_to_first_frame_ms_p95": percentile(own, 95),
    }


class Tmux:
    def __init__(self, command, env, width, height):
        self.socket = "cm-bench-" + uuid.uuid4().hex[:8]
        self.run("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height),
                 " ".join(["env"] + [f"{k}={v}" for k, v in env.items() if k.startswith(("HOME", "TERM", "LANG", "XDG_", "DBUS_"))] + command))

    def run(self, *words):
        return subprocess.run(["tmux", "-L", self.socket, *words], capture_output=True, text=True, check=True).stdout

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "main")

    def pid(self):
        return int(self.run("display-message", "-p", "-t", "main", "#{pane_pid}").strip())

    def wait_for(self, text, seconds=30):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if text in self.screen():
                return
            time.sleep(0.1)
        raise SystemExit(f"waited for {text!r}; the screen was:\n{self.screen()}")

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def playing(args, width, height):
    home = tempfile.mkdtemp(prefix="cm-tui-bench-")
    env = player_env(home)
    pipe = home + "/pty-output"
    tmux = Tmux([args.player, "--server", args.server, "--audio", "null", "--no-media-keys", "play", "少年"], env, width, height)
    try:
        tmux.wait_for("少年的梦")
        tmux.run("pipe-pane", "-t", "main", f"cat > {pipe}")
        pid = tmux.pid()
        results = []
        # Now playing with the lyrics; the help screen (a static body, only the control bar moves), which
        # splits decoding and events from drawing lyrics; paused.
        for state in ("playing", "playing-help-screen", "paused"):
            if state == "playing-help-screen":
                tmux.run("send-keys", "-t", "main", "?")
                tmux.wait_for("Loop mode: list, one, shuffle")
            if state == "paused":
                tmux.run("send-keys", "-t", "main", "Space")
                tmux.wait_for("‖")
            time.sleep(2)
            size0, cpu0, t0 = os.path.getsize(pipe), cpu_seconds(pid), time.monotonic()
            time.sleep(args.seconds)
            size1, cpu1, t1 = os.path.getsize(pipe), cpu_seconds(pid), time.monotonic()
            results.append({
                "benchmark": f"cpu-{state}", "size": f"{width}x{height}", "seconds": args.seconds,
                "cpu_percent_of_one_core": round((cpu1 - cpu0) / (t1 - t0) * 100, 2),
                "terminal_bytes_per_second": round((size1 - size0) / (t1 - t0)),
            })
        rss = int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1))
        results[-1]["rss_mib"] = round(rss / 1024, 1)
        return results
    finally:
        tmux.close()
        shutil.rmtree(home, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--player", required=True)
    parser.add_argument("--server", required=True)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=30)
    args = parser.parse_args()
    print(json.dumps(startup(args)), flush=True)
    for width, height in ((80, 24), (200, 60)):
        for result in playing(args, width, height):
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
