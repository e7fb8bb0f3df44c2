import Foundation
import Tracking

/// The JSON bodies of the inspector's routes, as the page reads them: an event's Summary and
/// Detail, the events list and Health. Written with ``JSONWriter``; the server passes every body
/// through ``InspectorJSON/safe(_:)`` before it goes out.
enum InspectorEncoding {
    /// A Summary: id, time, category, name, action, status, flags, attempts, inJournal, lastError.
    /// - Parameter status: the status to show instead of the record's (`evicted`, `delivered`).
    static func summary(_ record: MonitorRecord, status: String? = nil, into writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.uuid(record.id)
        writer.raw(",\"time\":")
        writer.string(record.createdAt)
        writer.raw(",\"category\":")
        writer.string(record.category)
        writer.raw(",\"name\":")
        writer.string(record.name)
        writer.raw(",\"action\":")
        writer.string(record.action)
        writer.raw(",\"status\":")
        writer.string(status ?? record.status.rawValue)
        writer.raw(",\"flags\":[")
        for (index, flag) in record.flags.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(flag)
        }
        writer.raw("],\"attempts\":")
        writer.int(record.attempts)
        writer.raw(",\"inJournal\":")
        writer.bool(record.inJournal == true)
        writer.raw(",\"lastError\":")
        optional(record.lastError, into: &writer)
        writer.raw(",\"steps\":")
        writer.int(record.timeline?.count ?? 0)
        writer.raw("}")
    }

    /// `[Summary, …]`.
    static func summaries(_ records: [(record: MonitorRecord, status: String?)], into writer: inout JSONWriter) {
        writer.raw("[")
        for (index, entry) in records.enumerated() {
            if index > 0 { writer.raw(",") }
            summary(entry.record, status: entry.status, into: &writer)
        }
        writer.raw("]")
    }

    /// `/api/events`: `{"events": [Summary…], "good", "flagged", "total", "readOnly"}`; good and
    /// flagged count the events listed.
    static func eventList(_ records: [MonitorRecord], total: Int, readOnly: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 * records.count + 64)
        writer.raw("{\"events\":")
        summaries(records.map { ($0, nil) }, into: &writer)
        let flagged = records.filter { !$0.flags.isEmpty }.count
        writer.raw(",\"good\":")
        writer.int(records.count - flagged)
        writer.raw(",\"flagged\":")
        writer.int(flagged)
        writer.raw(",\"total\":")
        writer.int(max(total, records.count))
        writer.raw(",\"readOnly\":")
        writer.bool(readOnly)
        writer.raw("}")
        return writer.bytes
    }

    /// A stream's `events` message: `{"events": [Summary…]}`, with `"reset": true` for the first.
    static func streamEvents(_ records: [(record: MonitorRecord, status: String?)], reset: Bool) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 * records.count + 32)
        writer.raw("{\"events\":")
        summaries(records, into: &writer)
        if reset { writer.raw(",\"reset\":true") }
        writer.raw("}")
        return writer.bytes
    }

    /// `/api/events/<id>`: the Detail. The timeline starts with `created`, then one `flagged` per
    /// flag (its detail: the flag and its reason), then the Dispatcher's steps.
    static func detail(_ detail: InspectorDetail, receipts: [Receipt]) -> [UInt8] {
        let record = detail.record
        var writer = JSONWriter(capacity: 2048 + (detail.wire?.count ?? 0))
        writer.raw("{\"summary\":")
        summary(record, into: &writer)
        writer.raw(",\"format\":")
        optional(detail.format, into: &writer)
        writer.raw(",\"wire\":")
        if let wire = detail.wire { writer.raw(bytes: wire) } else { writer.null() }
        writer.raw(",\"userData\":")
        writer.object(record.userData)
        writer.raw(",\"context\":")
        writer.object(record.context)
        writer.raw(",\"timeline\":[")
        step("created", time: record.createdAt, detail: nil, attempt: nil, into: &writer)
        for flag in record.flags {
            writer.raw(",")
            step("flagged", time: record.createdAt, detail: InspectorFlagReason.text(of: flag), attempt: nil, into: &writer)
        }
        for entry in record.timeline ?? [] {
            writer.raw(",")
            step(entry.kind.rawValue, time: JSONText.iso8601(entry.at), detail: entry.detail, attempt: entry.attempt, into: &writer)
        }
        writer.raw("],\"receipts\":[")
        for (index, receipt) in receipts.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"plugin\":")
            writer.string(receipt.plugin)
            writer.raw(",\"time\":")
            writer.date(receipt.handledAt)
            writer.raw(",\"form\":")
            writer.string(receipt.form)
            writer.raw("}")
        }
        writer.raw("]}")
        return writer.bytes
    }

    private static func step(_ kind: String, time: String, detail: String?, attempt: Int?, into writer: inout JSONWriter) {
        writer.raw("{\"step\":")
        writer.string(kind)
        writer.raw(",\"time\":")
        writer.string(time)
        writer.raw(",\"detail\":")
        optional(detail, into: &writer)
        writer.raw(",\"attempt\":")
        if let attempt { writer.int(attempt) } else { writer.null() }
        writer.raw("}")
    }

    /// `/api/health` and a stream's `health` message.
    static func health(_ health: InspectorHealth, diagnostics: [DispatcherDiagnostic], rates: [InspectorRates.Sample]) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024 + 48 * rates.count)
        writer.raw("{\"readOnly\":")
        writer.bool(health.readOnly)
        writer.raw(",\"counters\":{")
        for (index, counter) in health.counters.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(counter.name)
            writer.raw(":")
            writer.int(counter.value)
        }
        writer.raw("},\"queue\":{\"depth\":")
        writer.int(health.depth)
        writer.raw(",\"bytes\":")
        writer.int(health.bytes)
        writer.raw("},\"paused\":")
        writer.bool(health.paused)
        writer.raw(",\"pauseReason\":")
        optional(health.pauseReason, into: &writer)
        writer.raw(",\"diagnostics\":[")
        for (index, diagnostic) in diagnostics.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"time\":")
            writer.date(diagnostic.at)
            writer.raw(",\"area\":")
            writer.string(diagnostic.area.rawValue)
            writer.raw(",\"message\":")
            writer.string(diagnostic.message)
            writer.raw("}")
        }
        writer.raw("],\"rates\":[")
        for (index, sample) in rates.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"t\":")
            writer.int(sample.second)
            writer.raw(",\"sent\":")
            writer.int(sample.sent)
            writer.raw(",\"delivered\":")
            writer.int(sample.delivered)
            writer.raw("}")
        }
        writer.raw("]}")
        return writer.bytes
    }

    private static func optional(_ text: String?, into writer: inout JSONWriter) {
        if let text { writer.string(text) } else { writer.null() }
    }
}
