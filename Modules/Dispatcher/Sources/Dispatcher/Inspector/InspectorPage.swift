import Foundation

/// The inspector's single page: one HTML document with its style and script inline, no external
/// resource, reading the JSON API of `InspectorServer` (`/api/stream`, `/api/events/<id>`).
///
/// The document is the raw literals ``markup``, ``style`` (InspectorPage+Style.swift) and
/// ``script`` (InspectorPage+Script.swift); `{{STYLE}}` and `{{SCRIPT}}` mark where the last two go
/// and `{{NONCE}}` the CSP nonce. `Tests/Browser/mock_inspector.py` assembles the same document
/// from these files with a regular expression, so each literal opens with `#"""` at the end of a
/// `static let NAME = ` line and closes with `"""#` alone at the start of a line.
enum InspectorPage {
    /// The document, its `<style>` and `<script>` carrying `nonce` (characters other than
    /// letters, digits, `+`, `/`, `=`, `-` and `_` are dropped, so it cannot leave the attribute).
    static func html(nonce: String) -> String {
        let safe = String(nonce.unicodeScalars.filter { nonceCharacters.contains($0) }.map(Character.init))
        return markup
            .replacingOccurrences(of: "{{STYLE}}", with: style)
            .replacingOccurrences(of: "{{SCRIPT}}", with: script)
            .replacingOccurrences(of: "{{NONCE}}", with: safe)
    }

    /// The characters a nonce may have (base64 and base64url).
    private static let nonceCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_")

    /// The document's structure; the element ids are the contract's.
    static let markup = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Analytics inspector</title>
<style nonce="{{NONCE}}">
{{STYLE}}
</style>
</head>
<body>
<header>
  <h1>Analytics inspector</h1>
  <span id="connection" class="badge off">connecting…</span>
  <span class="counts">
    <span class="good">good <b id="count-good">0</b></span>
    <span class="bad">flagged <b id="count-flagged">0</b></span>
    <span>shown <b id="count-shown">0</b></span>
  </span>
</header>
<main>
<section id="stream">
  <form id="filters" autocomplete="off">
    <label>Category <select id="filter-category"><option value="">all</option></select></label>
    <label>Status <select id="filter-status">
      <option value="">all</option><option value="pending">pending</option>
      <option value="in_flight">in flight</option><option value="delivered">delivered</option>
      <option value="rejected">rejected</option><option value="held">held</option>
      <option value="evicted">evicted</option></select></label>
    <label>Flag <select id="filter-flag">
      <option value="">all</option><option value=":good">good (no flag)</option>
      <option value=":flagged">any flag</option></select></label>
    <label class="grow">Search <input id="search" type="search" placeholder="name, action, id, error…"></label>
    <button type="button" id="export-json">Export JSON</button>
    <button type="button" id="export-csv">Export CSV</button>
  </form>
  <div class="scroll">
    <table>
      <thead><tr><th>Time</th><th>Category</th><th>Name</th><th>Action</th><th>Status</th><th>Flags</th></tr></thead>
      <tbody id="events"></tbody>
    </table>
    <p id="empty" class="muted">No event yet.</p>
  </div>
<section id="health">
  <div>
    <h2>Health <span id="readonly" class="badge" hidden>read-only store</span></h2>
    <div class="counters">
      <div><span>sent</span><b id="counter-sent">–</b></div>
      <div><span>persisted</span><b id="counter-persisted">–</b></div>
      <div><span>delivered</span><b id="counter-delivered">–</b></div>
      <div><span>rejected</span><b id="counter-rejected">–</b></div>
      <div><span>retried</span><b id="counter-retried">–</b></div>
      <div><span>flagged</span><b id="counter-flagged">–</b></div>
      <div><span>refused</span><b id="counter-refused">–</b></div>
      <div><span>evicted</span><b id="counter-evicted">–</b></div>
      <div><span>queue</span><b id="queue-depth">–</b></div>
      <div><span>bytes</span><b id="queue-bytes">–</b></div>
    </div>
    <p>Delivery: <b id="paused">–</b></p>
  </div>
  <div>
    <h3>Events per second <span class="legend"><i class="sent"></i>sent <i class="delivered"></i>delivered</span></h3>
    <canvas id="chart" width="440" height="140"></canvas>
  </div>
  <div class="wide">
    <h3>Diagnostics</h3>
    <ul id="diagnostics"></ul>
  </div>
</section>
</section>
<aside>
<p id="detail-hint" class="muted">Click an event to see its timeline, user data, context and what went on the wire.</p>
<section id="detail" hidden>
  <div class="bar"><h2>Event</h2><button type="button" id="detail-close">Close</button></div>
  <dl id="detail-summary"></dl>
  <h3>Timeline</h3>
  <ol id="detail-timeline"></ol>
  <h3>User data</h3>
  <pre id="detail-userdata"></pre>
  <h3>Context</h3>
  <pre id="detail-context"></pre>
  <h3>On the wire <span id="detail-format" class="muted"></span></h3>
  <pre id="detail-wire"></pre>
  <h3>Receipts</h3>
  <ul id="detail-receipts"></ul>
</section>
</aside>
</main>
<script nonce="{{NONCE}}">
{{SCRIPT}}
</script>
</body>
</html>
"""#
}
