extension InspectorPage {
    /// The page's script: the live stream, filters, detail, health, chart and exports. Every text
    /// that comes from events reaches the document through `textContent` or `createTextNode`.
    static let script = #"""
'use strict';
(() => {
const $ = (id) => document.getElementById(id);
const STATUSES = ['pending', 'in_flight', 'delivered', 'rejected', 'held', 'evicted'];
const COUNTERS = ['sent', 'persisted', 'delivered', 'refused', 'evicted', 'rejected', 'retried', 'flagged'];
const COLUMNS = ['id', 'time', 'category', 'name', 'action', 'status', 'flags', 'attempts', 'inJournal', 'lastError'];
const MAX_EVENTS = 5000, CHART_SECONDS = 300, SILENCE_MS = 5000;
const state = { events: new Map(), rows: new Map(), seq: 0, selected: null, detailToken: 0, categories: new Set(),
  flags: new Set(), rates: [], source: null, retry: 0, timer: null, lastMessage: Date.now(), renderQueued: false };

function el(tag, text, cls) { // the one way text reaches the page: textContent
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls; return node;
}
function parse(text) { try { return JSON.parse(text); } catch (e) { return null; } }
function flagsOf(e) { return Array.isArray(e.flags) ? e.flags.map(String) : []; }
function flagCode(flag) { return flag.split(/[(:]/)[0].trim() || flag; } // unknown_field(sku: …) → unknown_field
function pretty(value) { return JSON.stringify(value, null, 2); }
function num(v) { return Number.isFinite(v) ? v.toLocaleString('en-US') : '–'; }
function bytes(v) {
  if (!Number.isFinite(v)) return '–';
  const units = ['B', 'KB', 'MB', 'GB']; let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i ? v.toFixed(1) : String(v)) + ' ' + units[i];
}
function clock(iso) { // local time of day with milliseconds
  const d = new Date(iso), p = (n, w = 2) => String(n).padStart(w, '0');
  return isNaN(d.getTime()) ? String(iso ?? '') : p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()) + '.' + p(d.getMilliseconds(), 3);
}

// ---- the stream ------------------------------------------------------------------------------
function setConnection(text, live) { $('connection').textContent = text; $('connection').classList.toggle('off', !live); }
function connect() {
  if (state.source) state.source.close();
  const source = new EventSource('/api/stream');
  state.source = source; state.lastMessage = Date.now(); setConnection('connecting…', false);
  source.addEventListener('events', (m) => { const b = message(m); if (b) mergeEvents(Array.isArray(b.events) ? b.events : [], b.reset === true); });
  source.addEventListener('health', (m) => { const b = message(m); if (b) showHealth(b); });
  source.onerror = () => { setConnection('reconnecting…', false); if (source.readyState === EventSource.CLOSED) reconnectSoon(); };
}
function message(m) { // any message proves the stream alive
  state.lastMessage = Date.now(); state.retry = 0; setConnection('live', true);
  const body = parse(m.data); return body && typeof body === 'object' ? body : null;
}
function reconnectSoon() {
  if (state.timer) return;
  const delay = Math.min(10000, 500 * 2 ** Math.min(state.retry++, 5));
  state.timer = setTimeout(() => { state.timer = null; connect(); }, delay);
}
// Health arrives every second: a silent stream is a dead one (a proxy, a sleeping laptop).
setInterval(() => {
  if (Date.now() - state.lastMessage > SILENCE_MS && !state.timer) {
    if (state.source) state.source.close();
    setConnection('reconnecting…', false); reconnectSoon();
  }
}, 1000);

function mergeEvents(list, reset) {
  if (reset) state.events.clear();
  let selectedChanged = false;
  for (let i = list.length - 1; i >= 0; i--) { // newest first on the wire: number oldest first
    const e = list[i];
    if (!e || typeof e !== 'object' || typeof e.id !== 'string') continue;
    const old = state.events.get(e.id);
    e._seq = old ? old._seq : ++state.seq; e._t = Date.parse(e.time) || 0;
    state.events.set(e.id, e);
    if (e.id === state.selected) selectedChanged = true;
    noteOptions(e);
  }
  if (state.events.size > MAX_EVENTS) {
    const oldest = sorted([...state.events.values()]).slice(MAX_EVENTS);
    for (const e of oldest) state.events.delete(e.id);
  }
  for (const id of state.rows.keys()) if (!state.events.has(id)) state.rows.delete(id);
  scheduleRender();
  if (reset && state.selected && !state.events.has(state.selected)) closeDetail(); // deleted: nothing of it stays
  else if (selectedChanged) loadDetail(state.selected, true);
}

// ---- filters and the table -------------------------------------------------------------------
function rebuildOptions(select, values, fixed, label, prefix) {
  const current = select.value;
  const options = fixed.map(([value, text]) => { const o = el('option', text); o.value = value; return o; });
  for (const v of [...values].sort()) { const o = el('option', label(v)); o.value = prefix + v; options.push(o); }
  select.replaceChildren(...options);
  select.value = current;
  if (select.value !== current) select.value = '';
}
function noteOptions(e) {
  const category = String(e.category ?? '');
  if (!state.categories.has(category)) {
    state.categories.add(category);
    rebuildOptions($('filter-category'), state.categories, [['', 'all']], (v) => v, '');
  }
  for (const flag of flagsOf(e).map(flagCode)) if (!state.flags.has(flag)) {
    state.flags.add(flag);
    rebuildOptions($('filter-flag'), state.flags, [['', 'all'], [':good', 'good (no flag)'], [':flagged', 'any flag']], (v) => 'flag: ' + v, '=');
  }
}
function filters() {
  return { category: $('filter-category').value, status: $('filter-status').value,
    flag: $('filter-flag').value, text: $('search').value.trim().toLowerCase() };
}
function matches(e, f) {
  if (f.category && String(e.category) !== f.category) return false;
  if (f.status && e.status !== f.status) return false;
  const flags = flagsOf(e);
  if (f.flag === ':good' && flags.length) return false;
  if (f.flag === ':flagged' && !flags.length) return false;
  if (f.flag.startsWith('=') && !flags.some((x) => flagCode(x) === f.flag.slice(1))) return false;
  if (f.text) {
    const hay = [e.id, e.category, e.name, e.action, e.status, flags.join(' '), e.lastError ?? ''].join('\n').toLowerCase();
    if (!hay.includes(f.text)) return false;
  }
  return true;
}
function sorted(list) { return list.sort((a, b) => (b._t - a._t) || (b._seq - a._seq)); }
function visible() { const f = filters(); return sorted([...state.events.values()].filter((e) => matches(e, f))); }
function scheduleRender() { if (!state.renderQueued) { state.renderQueued = true; setTimeout(render, 50); } }
function cell(text) { const td = el('td', text); td.title = td.textContent; return td; }
function rowFor(e) {
  const cached = state.rows.get(e.id);
  if (cached && cached.e === e) { cached.tr.classList.toggle('selected', e.id === state.selected); return cached.tr; }
  const tr = el('tr', null, 'event');
  const status = STATUSES.includes(e.status) ? e.status : 'unknown', flags = flagsOf(e);
  tr.dataset.id = e.id; tr.dataset.status = String(e.status ?? ''); tr.dataset.category = String(e.category ?? '');
  tr.classList.toggle('flagged', flags.length > 0); tr.classList.toggle('rejected', status === 'rejected');
  tr.classList.toggle('selected', e.id === state.selected);
  const statusCell = el('td'); statusCell.append(el('span', status.replace('_', ' '), 'status ' + status));
  statusCell.title = e.lastError ? status + ': ' + e.lastError : status + (e.attempts ? ' after ' + e.attempts + ' attempt(s)' : '');
  tr.append(cell(clock(e.time)), cell(e.category), cell(e.name), cell(e.action), statusCell, cell(flags.join(', ')));
  state.rows.set(e.id, { e, tr });
  return tr;
}
function render() {
  state.renderQueued = false;
  const list = visible(), fragment = document.createDocumentFragment();
  for (const e of list) fragment.append(rowFor(e));
  $('events').replaceChildren(fragment);
  let flagged = 0;
  for (const e of state.events.values()) if (flagsOf(e).length) flagged++;
  $('count-good').textContent = num(state.events.size - flagged); $('count-flagged').textContent = num(flagged);
  $('count-shown').textContent = num(list.length);
  const empty = $('empty'); empty.hidden = list.length > 0; empty.textContent = state.events.size ? 'No event matches the filters.' : 'No event yet.';
}
for (const [id, type] of [['filter-category', 'change'], ['filter-status', 'change'], ['filter-flag', 'change'], ['search', 'input']]) {
  $(id).addEventListener(type, scheduleRender);
}
$('filters').addEventListener('submit', (ev) => ev.preventDefault());

// ---- the detail ------------------------------------------------------------------------------
$('events').addEventListener('click', (ev) => { const tr = ev.target.closest('tr.event'); if (tr) select(tr.dataset.id); });
function select(id) {
  state.selected = id;
  for (const { tr } of state.rows.values()) tr.classList.toggle('selected', tr.dataset.id === id);
  loadDetail(id, false);
}
function closeDetail() {
  state.selected = null; state.detailToken++; $('detail').hidden = true; $('detail-hint').hidden = false;
  for (const { tr } of state.rows.values()) tr.classList.remove('selected');
}
$('detail-close').addEventListener('click', closeDetail);
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') closeDetail(); });
async function loadDetail(id, quiet) {
  const token = ++state.detailToken;
  try {
    const response = await fetch('/api/events/' + encodeURIComponent(id), { headers: { Accept: 'application/json' } });
    const body = parse(await response.text());
    if (token !== state.detailToken) return;
    if (!response.ok || !body || typeof body !== 'object') {
      if (!quiet) detailError((body && body.error) || 'HTTP ' + response.status);
      return;
    }
    showDetail(body);
  } catch (err) { if (token === state.detailToken && !quiet) detailError(String(err)); }
}
function detailError(message) {
  $('detail').hidden = false; $('detail-hint').hidden = true;
  $('detail-summary').replaceChildren(el('dt', 'error'), el('dd', message));
  for (const id of ['detail-timeline', 'detail-receipts']) $(id).replaceChildren();
  for (const id of ['detail-userdata', 'detail-context', 'detail-wire', 'detail-format']) $(id).textContent = '';
}
function showDetail(d) {
  const s = d.summary && typeof d.summary === 'object' ? d.summary : {};
  const dl = $('detail-summary'); dl.replaceChildren();
  const add = (key, value) => { if (value !== undefined && value !== null && value !== '') dl.append(el('dt', key), el('dd', value)); };
  add('id', s.id); add('time', s.time); add('category', s.category); add('name', s.name); add('action', s.action);
  add('status', s.status); add('attempts', s.attempts); add('flags', flagsOf(s).join(', ') || 'none');
  add('in journal', s.inJournal ? 'yes (not yet in the store)' : null); add('last error', s.lastError);
  $('detail-userdata').textContent = pretty(d.userData ?? {}); $('detail-context').textContent = pretty(d.context ?? {});
  $('detail-format').textContent = d.format ? '(' + d.format + ')' : '';
  $('detail-wire').textContent = d.wire === null || d.wire === undefined ? 'Not encoded: no destination.' : pretty(d.wire);
  const timeline = $('detail-timeline'); timeline.replaceChildren();
  for (const step of Array.isArray(d.timeline) ? d.timeline : []) {
    if (!step || typeof step !== 'object') continue;
    const li = el('li'); li.dataset.step = String(step.step ?? '');
    const label = step.step === 'attempt' && step.attempt != null ? 'attempt ' + step.attempt : String(step.step ?? '');
    li.append(el('span', clock(step.time), 'when'), el('span', label, 'step'));
    if (step.detail !== null && step.detail !== undefined) li.append(document.createTextNode(String(step.detail)));
    timeline.append(li);
  }
  const receipts = $('detail-receipts'); receipts.replaceChildren();
  for (const r of Array.isArray(d.receipts) ? d.receipts : []) {
    if (r && typeof r === 'object') receipts.append(el('li', [r.plugin, r.form, clock(r.time)].filter((x) => x != null && x !== '').join(' · ')));
  }
  if (!receipts.childElementCount) receipts.append(el('li', 'none', 'muted'));
  $('detail').hidden = false; $('detail-hint').hidden = true;
}

// ---- health and the chart --------------------------------------------------------------------
function showHealth(h) {
  const counters = h.counters && typeof h.counters === 'object' ? h.counters : {};
  for (const key of COUNTERS) $('counter-' + key).textContent = num(counters[key]);
  const queue = h.queue && typeof h.queue === 'object' ? h.queue : {};
  $('queue-depth').textContent = num(queue.depth); $('queue-bytes').textContent = bytes(queue.bytes);
  const paused = $('paused');
  paused.textContent = h.paused ? 'paused' + (h.pauseReason ? ': ' + h.pauseReason : '') : 'running';
  paused.classList.toggle('on', !!h.paused);
  $('readonly').hidden = h.readOnly !== true;
  const list = $('diagnostics'), items = [];
  for (const diag of (Array.isArray(h.diagnostics) ? h.diagnostics : []).slice().reverse()) {
    if (!diag || typeof diag !== 'object') continue;
    const li = el('li');
    li.append(el('span', clock(diag.time) + ' ', 'muted'), el('span', diag.area, 'area'), document.createTextNode(String(diag.message ?? '')));
    items.push(li);
  }
  if (!items.length) items.push(el('li', 'none', 'muted'));
  list.replaceChildren(...items);
  state.rates = Array.isArray(h.rates) ? h.rates : []; drawChart();
}
function drawChart() {
  const canvas = $('chart'), ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || 440, h = canvas.clientHeight || 140;
  if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
    canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
  }
  const g = canvas.getContext('2d'); g.setTransform(ratio, 0, 0, ratio, 0, 0); g.clearRect(0, 0, w, h);
  const css = getComputedStyle(document.documentElement), color = (name) => css.getPropertyValue(name).trim() || '#888';
  const times = state.rates.map((r) => Number(r && r.t)).filter(Number.isFinite);
  const end = times.length ? Math.max(...times) : Math.floor(Date.now() / 1000); // the last minute, growing to five
  const span = Math.max(60, Math.min(CHART_SECONDS, times.length ? end - Math.min(...times) + 1 : 60)), start = end - span + 1;
  const sent = new Array(span).fill(0), delivered = new Array(span).fill(0);
  for (const r of state.rates) {
    const i = Number(r && r.t) - start;
    if (i >= 0 && i < span) { sent[i] += Number(r.sent) || 0; delivered[i] += Number(r.delivered) || 0; }
  }
  const peak = Math.max(1, ...sent, ...delivered), unit = 10 ** Math.floor(Math.log10(peak)), top = Math.ceil(peak / unit) * unit;
  const left = 36, right = 6, upper = 8, lower = 18, pw = w - left - right, ph = h - upper - lower;
  g.font = '10px system-ui, sans-serif'; g.lineWidth = 1; g.strokeStyle = color('--line'); g.fillStyle = color('--muted');
  g.textAlign = 'right'; g.textBaseline = 'middle';
  for (const v of [0, top / 2, top]) {
    const y = upper + ph - (v / top) * ph;
    g.beginPath(); g.moveTo(left, y + 0.5); g.lineTo(w - right, y + 0.5); g.stroke();
    g.fillText(String(Math.round(v * 10) / 10), left - 4, y);
  }
  g.textBaseline = 'top';
  for (let m = 0; m <= 4; m++) {
    g.textAlign = m === 0 ? 'left' : m === 4 ? 'right' : 'center';
    g.fillText(m === 4 ? 'now' : '-' + Math.round(span * (4 - m) / 4) + 's', left + (m / 4) * pw, upper + ph + 4);
  }
  const line = (values, stroke, width) => {
    g.beginPath(); g.strokeStyle = stroke; g.lineWidth = width;
    values.forEach((v, i) => {
      const x = left + (i / (span - 1)) * pw, y = upper + ph - (v / top) * ph;
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke();
  };
  line(sent, color('--sent'), 3); line(delivered, color('--delivered'), 1.5); // delivered over sent: both show
}
window.addEventListener('resize', drawChart);

// ---- exports ---------------------------------------------------------------------------------
function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a'); a.href = url; a.download = name; document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}
function stamp(ext) { return 'inspector-' + new Date().toISOString().replace(/[:.]/g, '-') + '.' + ext; }
function row(e) { return Object.fromEntries(COLUMNS.map((k) => [k, e[k] ?? null])); }
function csvCell(value) {
  let text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join(';') : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = "'" + text; // a spreadsheet would run it as a formula
  return '"' + text.replace(/"/g, '""') + '"';
}
$('export-json').addEventListener('click', () => download(stamp('json'), 'application/json', JSON.stringify(visible().map(row), null, 2) + '\n'));
$('export-csv').addEventListener('click', () => {
  const lines = [COLUMNS.join(',')].concat(visible().map((e) => COLUMNS.map((k) => csvCell(e[k])).join(',')));
  download(stamp('csv'), 'text/csv;charset=utf-8', lines.join('\r\n') + '\r\n');
});

render(); drawChart(); connect();
})();
"""#
}
