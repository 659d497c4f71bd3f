"""A local origin for the web tests: the files of one folder on 127.0.0.2 (the one block the server may fetch
from, `--fetch-allow 127.0.0.2/32`), with their types and byte ranges (a player seeks with Range)."""
import http.server
import os
import pathlib
import threading

HOST = "127.0.0.2"
TYPES = {".xml": "application/rss+xml", ".mp3": "audio/mpeg", ".png": "image/png", ".json": "application/json+chapters",
         ".vtt": "text/vtt"}


def serve_folder(folder):
    """Serves `folder` until the returned server's `shutdown()`; returns (server, base address)."""
    class Origin(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            name = self.path.split("?", 1)[0].lstrip("/")
            path = os.path.join(folder, name)
            if "/" in name or name.startswith(".") or not os.path.isfile(path):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            data = pathlib.Path(path).read_bytes()
            start, end, status = 0, len(data) - 1, 200
            wanted = self.headers.get("Range", "")
            if wanted.startswith("bytes="):
                first, _, last = wanted[6:].split(",")[0].partition("-")
                if first:
                    start, end = int(first), min(int(last) if last else end, end)
                elif last:
                    start = max(0, len(data) - int(last))
                status = 206
            self.send_response(status)
            self.send_header("Content-Type", TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))
            self.send_header("Accept-Ranges", "bytes")
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
            self.send_header("Content-Length", str(end - start + 1))
            self.end_headers()
            try:
                self.wfile.write(data[start:end + 1])
            except (BrokenPipeError, ConnectionResetError):
                pass

    class Listener(http.server.ThreadingHTTPServer):
        request_queue_size = 128  # socketserver's 5 drops connections when a loaded machine accepts slowly
        daemon_threads = True

    server = Listener((HOST, 0), Origin)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{HOST}:{server.server_address[1]}"
