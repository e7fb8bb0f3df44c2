#!/usr/bin/env python3
"""A stand-in for `demo live` that serves the inspector's JSON API (see the issue-24 contract), to
develop and test the page without the Swift server.

It serves the real page: the document is assembled from the raw string literals of
Modules/Dispatcher/Sources/Dispatcher/Inspector/InspectorPage*.swift (`static let NAME = #\"\"\"`
... `\"\"\"#`), `{{STYLE}}`, `{{SCRIPT}}` and `{{NONCE}}` replaced as `InspectorPage.html(nonce:)`
does, under the contract's Content-Security-Policy.

Like `demo live --config FILE`: prints `inspector: http://127.0.0.1:PORT/`, reads NDJSON events
from stdin ({"category", "name", "action", "userData"}), delivers each as a Segment batch to the
configuration's `destination.endpoint` (gzip; 2xx delivered, 4xx rejected), and exits 0 at EOF
once nothing is pending. `python3 Tests/Browser/mock_inspector.py --config cfg.json`.
"""
import argparse, base64, gzip, http.server, json, os, queue, re, secrets, sys, threading, time
import urllib.error, urllib.request, uuid
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE_DIR = os.path.join(ROOT, "Modules/Dispatcher/Sources/Dispatcher/Inspector")
PROBE_CATEGORY = '<svg onload="window.__pwned=4">Probe</svg>'
CSP = ("default-src 'none'; script-src 'nonce-{n}'; style-src 'nonce-{n}'; connect-src 'self'; "
       "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def page_template(folder=PAGE_DIR):
    """The page with {{NONCE}} left in, from the Swift sources' raw literals."""
    parts = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith("InspectorPage") and name.endswith(".swift"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for key, body in re.findall(r'static let (\w+) = #"""\n(.*?)\n"""#', f.read(), re.S):
                    parts[key] = body
    missing = {"markup", "style", "script"} - parts.keys()
    if missing:
        raise SystemExit(f"mock_inspector: no literal {sorted(missing)} in {folder}")
    return parts["markup"].replace("{{STYLE}}", parts["style"]).replace("{{SCRIPT}}", parts["script"])


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(t * 1000) % 1000:03d}Z"


def safe_json(value):
    text = json.dumps(value, ensure_ascii=False)
    for ch, esc in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


class Store:
    """The events, counters and rates the API serves; one lock."""

    def __init__(self):
        self.lock, self.events, self.version = threading.Lock(), {}, 0
        self.counters = dict.fromkeys(["sent", "persisted", "delivered", "refused", "evicted", "rejected", "retried", "flagged"], 0)
        self.rates, self.diagnostics, self.pending = {}, [], queue.Queue()

    def _touch(self, ev):
        self.version += 1
        ev["version"] = self.version

    def _step(self, ev, step, detail=None, attempt=None):
        ev["timeline"].append({"step": step, "time": iso(time.time()), "detail": detail, "attempt": attempt})

    def _rate(self, key):
        self.rates.setdefault(int(time.time()), {"sent": 0, "delivered": 0})[key] += 1

    def add(self, category, name, action, user_data):
        now = time.time()
        flags = []
        if "Probe" in category:
            flags.append("contract")
        if any(k.lower() == "email" for k in user_data):
            flags.append("pii")
        s = {"id": str(uuid.uuid4()).upper(), "time": iso(now), "category": category, "name": name, "action": action,
             "status": "pending", "flags": flags, "attempts": 0, "inJournal": False, "lastError": None}
        wire = {"type": "track", "event": f"{category} {name} {action}", "messageId": s["id"], "timestamp": s["time"],
                "anonymousId": "mock-installation", "properties": dict(user_data, category=category, name=name, action=action),
                "context": {"library": {"name": "swift-tracking", "version": "mock"}, "flags": flags}}
        ev = {"n": len(self.events), "summary": s, "userData": user_data, "context": {"locale": "en-US", "appId": "mock"}, "wire": wire,
              "timeline": [], "receipts": [{"plugin": "SummaryPlugin", "time": s["time"], "form": "tracked"}]}
        with self.lock:
            self._step(ev, "created")
            for flag in flags:
                self._step(ev, "flagged", f"{flag}: {'not in the contract' if flag == 'contract' else 'looks like personal data'}")
            self._step(ev, "persisted")
            self.counters["sent"] += 1
            self.counters["persisted"] += 1
            self.counters["flagged"] += bool(flags)
            self._rate("sent")
            self.events[s["id"]] = ev
            self._touch(ev)
        self.pending.put(s["id"])

    def attempt_started(self, ev_id):
        with self.lock:
            ev = self.events[ev_id]
            ev["summary"]["status"], ev["summary"]["attempts"] = "in_flight", ev["summary"]["attempts"] + 1
            self._step(ev, "batched", "batch of 1")
            self._touch(ev)
            return ev["wire"], ev["summary"]["attempts"]

    def attempt_ended(self, ev_id, code, reason):
        with self.lock:
            ev, s = self.events[ev_id], self.events[ev_id]["summary"]
            self._step(ev, "attempt", f"HTTP {code}" if code else reason, s["attempts"])
            if code and 200 <= code < 300:
                s["status"] = "delivered"
                self._step(ev, "delivered")
                self.counters["delivered"] += 1
                self._rate("delivered")
            elif code and 400 <= code < 500:
                s["status"], s["lastError"] = "rejected", f"HTTP {code}: {reason}"
                self._step(ev, "rejected", s["lastError"])
                self.counters["rejected"] += 1
                self.diagnostics.append({"time": iso(time.time()), "area": "delivery", "message": f"batch rejected: HTTP {code}"})
            else:
                s["status"], s["lastError"] = "pending", reason
                self.counters["retried"] += 1
            self._touch(ev)
            return s["status"] == "pending"

    def summaries(self, since=0, limit=1000):
        with self.lock:
            evs = [e for e in self.events.values() if e["version"] > since]
            evs.sort(key=lambda e: (e["summary"]["time"], e["n"]), reverse=True)
            return [dict(e["summary"]) for e in evs[:limit]], self.version

    def detail(self, ev_id):
        with self.lock:
            ev = self.events.get(ev_id)
            if not ev:
                return None
            return {"summary": dict(ev["summary"]), "format": "segment", "wire": ev["wire"], "userData": ev["userData"],
                    "context": ev["context"], "timeline": list(ev["timeline"]), "receipts": ev["receipts"]}

    def health(self):
        with self.lock:
            now = int(time.time())
            rates = [{"t": t, **r} for t, r in sorted(self.rates.items()) if t > now - 300]
            depth = sum(1 for e in self.events.values() if e["summary"]["status"] in ("pending", "in_flight"))
            return {"readOnly": False, "counters": dict(self.counters), "queue": {"depth": depth, "bytes": depth * 420},
                    "paused": False, "pauseReason": None, "diagnostics": self.diagnostics[-20:], "rates": rates}


def deliver(store, endpoint, stop):
    """Posts each pending event alone to the collector, as Segment's batch API, gzip."""
    while not stop.is_set():
        try:
            ev_id = store.pending.get(timeout=0.1)
        except queue.Empty:
            continue
        time.sleep(0.3)  # let the page see pending, then in flight
        wire, attempt = store.attempt_started(ev_id)
        body = gzip.compress(json.dumps({"batch": [wire], "sentAt": iso(time.time())}).encode())
        request = urllib.request.Request(endpoint.rstrip("/") + "/v1/batch", data=body, method="POST", headers={
            "Content-Type": "application/json", "Content-Encoding": "gzip",
            "Authorization": "Basic " + base64.b64encode(b"mock-key:").decode()})
        code, reason = None, ""
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                code = response.status
        except urllib.error.HTTPError as error:
            code, reason = error.code, error.read(200).decode("utf-8", "replace")
        except OSError as error:
            reason = f"network: {error}"
        if store.attempt_ended(ev_id, code, reason) and attempt < 3:
            time.sleep(0.5 * attempt)
            store.pending.put(ev_id)
        store.pending.task_done()


def make_handler(store, template, port_box, lifetime):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code, ctype, body, nonce="none"):
            data = body.encode()
            self.send_response(code)
            for key, value in (("Content-Type", ctype), ("Content-Length", str(len(data))),
                               ("Content-Security-Policy", CSP.format(n=nonce)), ("X-Content-Type-Options", "nosniff"),
                               ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")):
                self.send_header(key, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def allowed(self):
            port = port_box[0]
            host = (self.headers.get("Host") or "").lower()
            if host not in (f"127.0.0.1:{port}", f"localhost:{port}"):
                return self.reply(403, "text/plain", "host not allowed")
            origin = self.headers.get("Origin")
            if origin is not None and origin.lower() not in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
                return self.reply(403, "text/plain", "origin not allowed")
            return True

        def do_POST(self):
            self.reply(405, "text/plain", "method not allowed")

        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            if not self.allowed():
                return
            path, _, query = self.path.partition("?")
            if path == "/":
                nonce = base64.b64encode(secrets.token_bytes(16)).decode()
                return self.reply(200, "text/html; charset=utf-8", template.replace("{{NONCE}}", nonce), nonce)
            if path == "/api/events":
                match = re.search(r"(?:^|&)limit=(\d+)", query)
                events, _ = store.summaries(limit=min(1000, int(match.group(1)) if match else 1000))
                flagged = sum(1 for e in events if e["flags"])
                return self.reply(200, "application/json", safe_json(
                    {"events": events, "good": len(events) - flagged, "flagged": flagged, "total": len(events), "readOnly": False}))
            if path.startswith("/api/events/"):
                detail = store.detail(path[len("/api/events/"):].upper())
                if detail is None:
                    return self.reply(404, "application/json", safe_json({"error": "no such event"}))
                return self.reply(200, "application/json", safe_json(detail))
            if path == "/api/health":
                return self.reply(200, "application/json", safe_json(store.health()))
            if path == "/api/stream":
                return self.stream()
            self.reply(404, "text/plain", "not found")

        def stream(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            started, last_health = time.monotonic(), 0.0
            events, version = store.summaries()
            try:
                self.send_event("events", {"events": events, "reset": True})
                while not lifetime or time.monotonic() - started < lifetime:
                    if time.monotonic() - last_health >= 1:
                        self.send_event("health", store.health())
                        last_health = time.monotonic()
                    time.sleep(0.25)
                    events, version = store.summaries(since=version)
                    if events:
                        self.send_event("events", {"events": events})
            except (BrokenPipeError, ConnectionResetError):
                pass

        def send_event(self, name, value):
            self.wfile.write(f"event: {name}\ndata: {safe_json(value)}\n\n".encode())
            self.wfile.flush()

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True, help="the demo's configuration JSON (destination.endpoint, inspector.port)")
    parser.add_argument("--stream-lifetime", type=float, default=0, help="close each stream after this many seconds (reconnection)")
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as f:
        config = json.load(f)
    store, stop, port_box = Store(), threading.Event(), [0]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(config.get("inspector", {}).get("port", 0))),
                                             make_handler(store, page_template(), port_box, args.stream_lifetime))
    server.daemon_threads = True
    port_box[0] = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = config.get("destination", {}).get("endpoint", "")
    worker = threading.Thread(target=deliver, args=(store, endpoint, stop), daemon=True)
    worker.start()
    print(f"inspector: http://127.0.0.1:{port_box[0]}/", flush=True)
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
            store.add(str(event["category"]) if event["category"] != "Probe" else PROBE_CATEGORY,
                      str(event["name"]), str(event["action"]), dict(event.get("userData") or {}))
        except (ValueError, KeyError, TypeError) as error:
            print(f"line {number}: not an event ({error})", file=sys.stderr, flush=True)
    store.pending.join()
    stop.set()
    server.shutdown()
    print("drained", flush=True)


if __name__ == "__main__":
    main()
