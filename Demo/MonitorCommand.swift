import Dispatcher
import Foundation

/// `demo monitor --store PATH [--format table|json|csv] [--status …] [--sort …] [--order …] [--limit N]`.
///
/// Exports (`json`, `csv`) are complete: every matching event, paged through one consistent
/// state of the store (each id exactly once, even beside a live writer), unless `--limit N` is given. The table shows the first `--limit` rows (1,000 by default) and, when
/// that is not all, ends with `showing N of M`. Events still only in the journal (after a crash)
/// are listed as pending, "in journal". Only an existing event store is read, and never written.
enum MonitorCommand {
    /// Rows read from the store per query while exporting.
    static let pageSize = 10_000

    /// The options `monitor` parses and its help lists.
    static let spec = CommandSpec(
        name: "monitor",
        synopsis: "--store PATH [--format table|json|csv] [--status S] [--sort KEY] [--order asc|desc] [--limit N]",
        summary: """
        Shows what the store holds, read-only: each event's id (lowercase), category, name,
        action, status, attempts, creation time, flags and last error.
        Exit 0 on success, 1 when the store is missing or cannot be read, 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store to read. Required."),
            .value("format", "table|json|csv", "Output format (default table)."),
            .value("status", "STATUS", "pending, in_flight, held, delivered, rejected or all (default all)."),
            .value("sort", "KEY", "created, category, name, status or attempts (default created)."),
            .value("order", "asc|desc", "Sort order (default asc)."),
            .value("limit", "N", "At most N events, 1 to 10000000 (default: all for json and csv, 1000 for the table)."),
        ],
        brief: "Shows what a store holds, as a table, JSON or CSV.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard let path = options.value("store") else { throw UsageError("monitor needs --store PATH") }
        let format = try options.choice("format", default: "table", from: ["table", "json", "csv"])
        let statusText = try options.choice("status", default: "all", from: ["pending", "in_flight", "held", "delivered", "rejected", "all"])
        let sortText = try options.choice("sort", default: "created", from: ["created", "category", "name", "status", "attempts"])
        let order = try options.choice("order", default: "asc", from: ["asc", "desc"])
        let givenLimit = options.value("limit") == nil ? nil : try options.int("limit", default: 1_000, in: 1...10_000_000)
        try StoreFileCheck.require(path)

        // Read-only: the monitor may look at a store a running app is using, and changes nothing.
        let store = try StoreMonitor(storePath: path)
        defer { store.close() }
        let sort: StoreQuery.Sort = switch sortText {
        case "category": .category
        case "name": .name
        case "status": .status
        case "attempts": .attempts
        default: .createdAt
        }
        let status = EventStatus(rawValue: statusText)
        let query = StoreQuery(status: status, sort: sort, ascending: order == "asc")
        // One consistent reading of the store, even beside a live writer: each id exactly once.
        guard format == "table" else {
            var writer = MonitorExportWriter(format: format)
            try store.export(query, pageSize: pageSize, limit: givenLimit) { records in try writer.write(records) }
            try writer.finish()
            return 0
        }
        var records: [MonitorRecord] = []
        try store.export(query, pageSize: pageSize, limit: givenLimit ?? 1_000) { records += $0 }
        say(MonitorExport.table(records), terminator: "")
        say("\(store.counts())")
        let total = try store.count(matching: query)
        if records.count < total { say("showing \(records.count) of \(total)") }
        return 0
    }
}
