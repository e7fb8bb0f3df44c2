"""A Segment-compatible collector on 127.0.0.1 for the inspector's browser test.

Accepts POSTs on any path (`/v1/batch`), plain or `Content-Encoding: gzip`, with a length or
chunked. Answers 200 `{"success":true}`, or 400 when the decoded body contains `reject-me`
(or cannot be decoded). Every request is recorded.
"""
import gzip, http.server, json, threading, zlib

REJECT_MARKER = b"reject-me"


class SegmentCollector:
    """Starts listening on an ephemeral loopback port; `stop()` closes it."""

    def __init__(self):
        self.lock, self.requests = threading.Lock(), []
        collector = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def read_body(self):
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    data = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            return data
                        data += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def do_POST(self):
                raw = self.read_body()
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                try:
                    body = gzip.decompress(raw) if encoding == "gzip" else raw
                    json.loads(body)
                    status = 400 if REJECT_MARKER in body else 200
                except (OSError, EOFError, zlib.error, ValueError):
                    body, status = raw, 400
                with collector.lock:
                    collector.requests.append({"path": self.path, "encoding": encoding, "status": status, "body": body})
                reply = b'{"success":true}' if status == 200 else b'{"success":false,"error":"rejected by the test collector"}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def statuses(self):
        """The status of each request answered so far, in order."""
        with self.lock:
            return [r["status"] for r in self.requests]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
