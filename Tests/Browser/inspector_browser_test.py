#!/usr/bin/env python3
"""The inspector page in a real browser (headless Chromium through Selenium) against a running
`demo live --config FILE` delivering to a Segment collector of its own on 127.0.0.1.

    swift build --product demo && python3 Tests/Browser/inspector_browser_test.py  # or --mock: mock_inspector.py

Checks, with a screenshot after each (paths printed): an event appears within 2 s; the category filter; a
delivered event's timeline; a rejected row; hostile text inert; the CSV/JSON exports; no CSP violation;
the demo exits 0 at EOF. Exits non-zero on the first failure.
"""
import argparse, contextlib, json, os, queue, re, shutil, signal, subprocess, sys, tempfile, threading, time, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from segment_collector import SegmentCollector  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:
    sys.exit("inspector_browser_test: python's selenium is missing (python3 -m pip install selenium)")

HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_ACTION = "\"';alert(1)//"
HOSTILE_KEY = "<script>window.__pwned=2</script>"
HOSTILE_VALUE = "<b onmouseover=window.__pwned=3>x</b>\u0007"
ROW_JS = """
const row = [...document.querySelectorAll('#events tr.event')].find((tr) => tr.cells[2] && tr.cells[2].textContent === arguments[0]);
return row ? {id: row.dataset.id, status: row.dataset.status, category: row.dataset.category,
  classes: [...row.classList], cells: [...row.cells].map((td) => td.textContent)} : null;"""


class Failure(Exception):
    """A check that did not hold."""


class Run:
    def __init__(self, args):
        self.args, self.passed = args, []
        self.tmp = tempfile.mkdtemp(prefix="inspector-browser-")
        self.token = uuid.uuid4().hex[:6]
        self.collector, self.process, self.driver, self.shots, self.lines, self.output = None, None, None, 0, queue.Queue(), []

    def start_app(self):
        self.collector = SegmentCollector()
        config = {"store": os.path.join(self.tmp, "events.sqlite"), "appId": "inspector-test",
                  "destination": {"format": "segment", "endpoint": self.collector.url, "writeKey": "test-key"},
                  "batch": {"deliverySize": 1, "flushInterval": 1}, "retry": {"maxAttempts": 3},
                  "deliveredHistory": 1000, "inspector": {"port": 0}}
        path = os.path.join(self.tmp, "config.json")
        with open(path, "w") as f:
            json.dump(config, f)
        demo = self.args.demo or os.path.join(ROOT, ".build/debug/demo")
        command = [sys.executable, os.path.join(HERE, "mock_inspector.py")] if self.args.mock else [demo, "live"]
        if not self.args.mock and not os.access(demo, os.X_OK):
            raise Failure(f"no demo binary at {demo}: run `swift build --product demo` first")
        command += ["--config", path]
        self.stderr = open(os.path.join(self.tmp, "app.stderr"), "w")
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True, bufsize=1)
        threading.Thread(target=self.read_output, daemon=True).start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.process.poll() is not None:
                    raise Failure(f"`{' '.join(command)}` ended with status {self.process.returncode} before serving")
                continue
            match = re.search(r"inspector: (http://127\.0\.0\.1:\d+/)", line)
            if match:
                self.url = match.group(1)
                return
        raise Failure("the demo printed no `inspector: http://127.0.0.1:PORT/` line within 30 s")

    def read_output(self):
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))
            self.lines.put(line)

    def start_browser(self):
        options = webdriver.ChromeOptions()
        options.binary_location = self.args.chromium
        for flag in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1360,820",
                     "--no-first-run", "--disable-extensions", "--force-color-profile=srgb"):
            options.add_argument(flag)
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")
        options.add_experimental_option("prefs", {"download.default_directory": self.tmp, "download.prompt_for_download": False})
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = webdriver.ChromeService(executable_path=self.args.chromedriver)
        self.driver = webdriver.Chrome(options=options, service=service)
        self.driver.set_page_load_timeout(10), self.driver.set_script_timeout(10)
        self.driver.get(self.url)
        self.wait("the stream connects", lambda: self.js("return document.getElementById('connection').textContent") == "live")

    def send(self, category, name, action, user_data):
        event = {"category": category, "name": name, "action": action, "userData": user_data}
        self.process.stdin.write(json.dumps(event) + "\n")
        self.process.stdin.flush()

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait(self, what, condition, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() <= deadline:
            try:
                value = condition()
            except WebDriverException:
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise Failure(f"{what}: not within {timeout:g} s")

    def row(self, name):
        return self.js(ROW_JS, name)

    def click_row(self, name):
        def click():  # a row added meanwhile moves the table under the pointer: click until it took
            row = self.row(name)
            self.driver.find_element(By.CSS_SELECTOR, f'#events tr.event[data-id="{row["id"]}"]').click()
            return self.js("return document.querySelector('#events tr.event.selected')?.dataset.id") == row["id"]
        self.wait(f"clicking the row {name!r}", click)

    def shot(self, label):
        self.shots += 1
        path = os.path.join(self.tmp, f"{self.shots:02d}-{label}.png")
        self.driver.save_screenshot(path)
        print(f"  screenshot: {path}", flush=True)

    def ok(self, label, text, shot=True):
        self.passed.append(label)
        print(f"ok {len(self.passed)} - {text}", flush=True)
        if shot:
            self.shot(label)

    def check_appears(self):
        name = f"checkout-{self.token}"
        started = time.monotonic()
        self.send("Basket", name, "tap", {"step": 1, "total": 42.5})
        self.wait(f"the event {name!r} in the table", lambda: self.row(name), timeout=2)
        elapsed = time.monotonic() - started
        self.send("Wishlist", f"add-{self.token}", "tap", {"sku": "A-1"})
        self.send("Onboarding", f"=1+2-{self.token}", "submit", {"step": "consent"})
        for name in (f"add-{self.token}", f"=1+2-{self.token}"):
            self.wait(f"the event {name!r} in the table", lambda: self.row(name))
        self.ok("a-appears", f"an event appears in the table {elapsed:.2f} s after it is sent")

    def check_filter(self):
        Select(self.driver.find_element(By.ID, "filter-category")).select_by_value("Basket")
        categories = lambda: self.js("return [...document.querySelectorAll('#events tr.event')].map((tr) => tr.dataset.category)")
        self.wait("only Basket rows after filtering", lambda: categories() and set(categories()) == {"Basket"})
        if not self.row(f"checkout-{self.token}") or self.row(f"add-{self.token}"):
            raise Failure("the Basket filter does not show exactly the Basket events")
        self.ok("b-filter", f"the category filter shows only Basket's {len(categories())} row(s)")
        Select(self.driver.find_element(By.ID, "filter-category")).select_by_value("")

    def check_delivered(self):
        name = f"checkout-{self.token}"
        self.click_row(name)
        steps = lambda: self.js("return [...document.querySelectorAll('#detail-timeline li')].map((li) => li.dataset.step)")
        self.wait(f"{name!r}'s timeline reaching delivered", lambda: "delivered" in (steps() or []))
        if steps()[0] != "created":
            raise Failure(f"the timeline does not start with created: {steps()}")
        self.wait(f"#detail-wire showing {name!r} as sent", lambda: name in self.driver.find_element(By.ID, "detail-wire").text)
        self.ok("c-delivered", "a delivered event's timeline: " + " > ".join(steps()))

    def check_rejected(self):
        name = f"rejected-{self.token}"
        self.send("Wishlist", name, "tap", {"note": "reject-me"})
        self.wait(f"the row {name!r} marked rejected", lambda: "rejected" in ((self.row(name) or {}).get("classes") or []))
        if 400 not in self.collector.statuses():
            raise Failure("the collector never answered 400")
        self.ok("d-rejected", "an event the collector refuses (400) is a `rejected` row")

    def check_hostile(self):
        self.send("Probe", HOSTILE_NAME, HOSTILE_ACTION, {HOSTILE_KEY: HOSTILE_VALUE})
        row = self.wait("the hostile event in the table, its name as literal text", lambda: self.row(HOSTILE_NAME))
        if row["cells"][3] != HOSTILE_ACTION or row["cells"][1] != row["category"]:
            raise Failure(f"the hostile row's text is not literal: {row['cells']}")
        self.click_row(HOSTILE_NAME)
        userdata = lambda: self.driver.find_element(By.ID, "detail-userdata").text
        self.wait("the hostile event's user data in the detail", lambda: HOSTILE_KEY in userdata())
        for element_id in ("detail-userdata", "detail-summary"):
            ActionChains(self.driver).move_to_element(self.driver.find_element(By.ID, element_id)).perform()
        time.sleep(0.3)
        injected = self.js("return document.querySelectorAll(['#events', '#detail'].flatMap((p) => "
                           "['img', 'script', 'b', 'svg', 'iframe'].map((t) => p + ' ' + t)).join(',')).length")
        pwned = self.js("return typeof window.__pwned === 'undefined' ? null : String(window.__pwned)")
        if pwned is not None or injected:
            raise Failure(f"hostile text ran or made elements: window.__pwned={pwned}, injected elements={injected}")
        visible = self.driver.find_element(By.ID, "events").text + "\n" + self.driver.find_element(By.ID, "detail").text
        for text in (HOSTILE_NAME, HOSTILE_ACTION, HOSTILE_KEY, "<b onmouseover=window.__pwned=3>x</b>\\u0007"):
            if text not in visible:
                raise Failure(f"the literal text {text!r} is not visible in the row or the detail")
        self.ok("e-hostile", "hostile name, action, category and user data render as inert literal text")

    def check_exports(self):
        self.js("window.__blobs = []; const make = URL.createObjectURL;"
                "URL.createObjectURL = (blob) => { window.__blobs.push(blob); return make.call(URL, blob); };")
        self.driver.find_element(By.ID, "export-csv").click()
        self.driver.find_element(By.ID, "export-json").click()
        texts = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; Promise.all(window.__blobs.map((b) => b.text())).then(done);")
        if len(texts) != 2:
            raise Failure(f"the export buttons made {len(texts)} download(s), not 2")
        csv, exported = texts[0], json.loads(texts[1])
        for cell in (f"\"'=1+2-{self.token}\"", '"""\';alert(1)//"'):
            if cell not in csv:
                raise Failure(f"the CSV lacks the guarded cell {cell}: {csv[:300]!r}")
        if not csv.startswith("id,time,category,name,action,status") or {e["name"] for e in exported} < {HOSTILE_NAME, f"add-{self.token}"}:
            raise Failure("the CSV header or the JSON export's events are not as expected")
        self.ok("f-exports", f"CSV and JSON exports of {len(exported)} events, formula cells guarded")

    def check_console(self):
        refused = [e["message"] for e in self.driver.get_log("browser") if "Content Security Policy" in e["message"]
                   or e["level"] == "SEVERE" and "favicon" not in e["message"]]
        if refused:
            raise Failure("the browser console has errors: " + "; ".join(refused[:3]))
        self.ok("g-console", "no CSP violation or error in the browser console", shot=False)

    def docs_screenshot(self, path):
        journey = [("Onboarding", "welcome", "view"), ("Onboarding", "consent", "accept"), ("Basket", "product", "add"),
                   ("Wishlist", "item", "save"), ("Basket", "payment", "select"), ("Basket", "order", "confirm")]
        for category, name, action in journey:
            self.send(category, name, action, {"screen": name, "email": "a@example.com"} if name == "consent" else {"screen": name})
        self.wait("the journey's events", lambda: self.row("confirm") or self.row("order"))
        self.driver.set_window_size(1400, 900)
        self.click_row(f"rejected-{self.token}")
        self.wait("the detail for the README picture", lambda: self.js("return document.querySelector('#detail-timeline li[data-step=rejected]')"))
        time.sleep(1.2)  # one more health message draws the chart
        self.driver.save_screenshot(path)
        print(f"  README screenshot: {path}", flush=True)

    def check_exit(self):
        self.process.stdin.close()
        try:
            status = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            raise Failure("the demo did not exit within 20 s of the end of its input")
        if status != 0:
            raise Failure(f"the demo exited with status {status} at the end of its input")
        self.ok("h-exit", "the demo drains and exits 0 at the end of its input", shot=False)

    def stop(self):
        if self.driver:
            self.driver.quit()
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)
        if self.collector:
            self.collector.stop()


def main():
    parser = argparse.ArgumentParser(description="The inspector page in a real browser.")
    parser.add_argument("--mock", action="store_true", help="drive mock_inspector.py instead of `demo live`")
    parser.add_argument("--demo", help="the demo binary (default .build/debug/demo)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--chromedriver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    parser.add_argument("--docs-screenshot", help="also save a picture of the page with a detail open here")
    args = parser.parse_args()

    def overtime(*_):
        raise Failure("the test ran past its 85 s budget")
    signal.signal(signal.SIGALRM, overtime)
    signal.alarm(85)
    run = Run(args)
    print(f"inspector browser test ({'mock' if args.mock else 'demo live'}), files in {run.tmp}", flush=True)
    try:
        for check in (run.start_app, run.start_browser, run.check_appears, run.check_filter, run.check_delivered, run.check_rejected,
                      run.check_hostile, run.check_exports, run.check_console):
            check()
        if args.docs_screenshot:
            run.docs_screenshot(os.path.abspath(args.docs_screenshot))
        run.check_exit()
    except (Failure, WebDriverException) as error:
        print(f"FAILED: {error}", file=sys.stderr)
        with contextlib.suppress(WebDriverException):
            run.driver and run.shot("failure")
        print(f"demo stdout (last lines): {run.output[-5:]}; stderr: {os.path.join(run.tmp, 'app.stderr')}", file=sys.stderr)
        print(f"inspector-browser: {len(run.passed)} passed, 1 failed")
        return 1
    finally:
        signal.alarm(0)
        run.stop()
    print(f"inspector-browser: {len(run.passed)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
