extension InspectorPage {
    /// The page's style sheet: compact, system fonts, light and dark schemes.
    static let style = #"""
:root { color-scheme: light dark; --bg: #fff; --fg: #1d1f23; --muted: #6b7280; --line: #e3e5e8;
  --head: #f5f6f8; --sel: #dbeafe; --good: #15803d; --warn: #b45309; --warn-bg: #fff7e6;
  --bad: #b91c1c; --bad-bg: #fde8e8; --sent: #2563eb; --delivered: #16a34a; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e5e7eb; --muted: #9ca3af; --line: #2d3138; --head: #1f2329;
    --sel: #1e3a5f; --warn-bg: #3a2a0c; --bad-bg: #451a1a; --good: #4ade80; --warn: #fbbf24; --bad: #f87171; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
header { display: flex; align-items: center; gap: 12px; padding: 8px 14px; border-bottom: 1px solid var(--line); background: var(--head); }
h1 { font-size: 16px; margin: 0; }
h2 { font-size: 14px; margin: 0 0 6px; }
h3 { font-size: 12px; margin: 12px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.badge { font-size: 11px; padding: 1px 7px; border-radius: 9px; background: var(--good); color: #fff; }
.badge.off { background: var(--warn); }
#readonly { background: var(--muted); }
.counts { margin-left: auto; display: flex; gap: 14px; }
.counts .good b { color: var(--good); }
.counts .bad b { color: var(--warn); }
main { display: grid; grid-template-columns: minmax(0, 1fr) 470px; height: calc(100vh - 41px); }
#stream { display: flex; flex-direction: column; min-width: 0; border-right: 1px solid var(--line); }
#filters { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 10px; border-bottom: 1px solid var(--line); }
#filters label { display: flex; gap: 4px; align-items: center; color: var(--muted); }
#filters .grow { flex: 1; }
#filters select { max-width: 190px; }
#filters .grow input { flex: 1; min-width: 120px; }
select, input, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 2px 6px; }
button { cursor: pointer; background: var(--head); }
button:hover { border-color: var(--muted); }
.scroll { overflow: auto; flex: 1; }
table { width: 100%; border-collapse: collapse; table-layout: fixed; }
th { position: sticky; top: 0; background: var(--head); text-align: left; font-weight: 600; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th:nth-child(1) { width: 116px; } th:nth-child(2) { width: 14%; } th:nth-child(5) { width: 86px; } th:nth-child(6) { width: 18%; }
td { padding: 3px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td:first-child { font-variant-numeric: tabular-nums; color: var(--muted); }
tr.event { cursor: pointer; }
tr.event:hover { background: var(--head); }
tr.event.selected { background: var(--sel); }
tr.event.flagged td:first-child { box-shadow: inset 3px 0 var(--warn); }
tr.event.flagged td:last-child { color: var(--warn); }
tr.event.rejected { background: var(--bad-bg); color: var(--bad); font-weight: 600; }
tr.event.rejected td:first-child { box-shadow: inset 3px 0 var(--bad); }
.status { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px; border: 1px solid var(--line); }
.status.delivered { color: var(--good); border-color: var(--good); }
.status.rejected { color: #fff; background: var(--bad); border-color: var(--bad); }
.status.pending, .status.in_flight, .status.held { color: var(--sent); border-color: var(--sent); }
.status.evicted { color: var(--muted); }
.muted { color: var(--muted); }
#empty { padding: 12px; }
aside { overflow: auto; padding: 10px 12px; }
#detail-hint { margin: 30px 10px; text-align: center; }
.bar { display: flex; justify-content: space-between; align-items: center; }
dl { display: grid; grid-template-columns: 90px 1fr; gap: 2px 8px; margin: 4px 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
pre { margin: 0; padding: 6px 8px; background: var(--head); border: 1px solid var(--line); border-radius: 4px;
  max-height: 220px; overflow: auto; font: 12px/1.35 ui-monospace, "SF Mono", Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
ol, ul { margin: 0; padding-left: 20px; }
#detail-timeline li { margin: 2px 0; }
#detail-timeline li .when { color: var(--muted); font-variant-numeric: tabular-nums; margin-right: 6px; }
#detail-timeline li .step { font-weight: 600; margin-right: 6px; }
#detail-timeline li[data-step=delivered] .step { color: var(--good); }
#detail-timeline li[data-step=rejected] .step, #detail-timeline li[data-step=evicted] .step { color: var(--bad); }
#detail-timeline li[data-step=flagged] .step { color: var(--warn); }
#health { display: grid; grid-template-columns: minmax(300px, 1fr) minmax(240px, 1.1fr); gap: 4px 16px; padding: 8px 10px;
  border-top: 1px solid var(--line); background: var(--bg); }
#health p { margin: 6px 0 0; }
#health .wide { grid-column: 1 / -1; }
#health h3 { margin-top: 0; }
.counters { display: grid; grid-template-columns: repeat(5, 1fr); gap: 6px; }
.counters div { background: var(--head); border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; }
.counters span { display: block; font-size: 11px; color: var(--muted); }
.counters b { font-size: 15px; font-variant-numeric: tabular-nums; }
#paused.on { color: var(--bad); }
#chart { width: 100%; height: 120px; border: 1px solid var(--line); border-radius: 4px; }
.legend { text-transform: none; letter-spacing: 0; margin-left: 8px; }
.legend i { display: inline-block; width: 10px; height: 3px; margin: 0 3px 2px 8px; }
.legend i.sent { background: var(--sent); }
.legend i.delivered { background: var(--delivered); }
#diagnostics { max-height: 64px; overflow: auto; }
#diagnostics li { margin: 1px 0; overflow-wrap: anywhere; }
#diagnostics .area { font-weight: 600; margin-right: 4px; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; height: auto; } #stream { border-right: 0; } .scroll { max-height: 60vh; } }
"""#
}
