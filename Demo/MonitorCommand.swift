import Dispatcher
import Foundation

/// `demo monitor --store PATH [--format table|json|csv] [--status …] [--sort …] [--order …] [--limit N]`.
enum MonitorCommand {
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
            .value("limit", "N", "At most N events, 1 to 10000000 (default 1000)."),
        ],
        brief: "Shows what a store holds, as a table, JSON or CSV.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard let path = options.value("store") else { throw UsageError("monitor needs --store PATH") }
        let format = try options.choice("format", default: "table", from: ["table", "json", "csv"])
        let statusText = try options.choice("status", default: "all", from: ["pending", "in_flight", "held", "delivered", "rejected", "all"])
        let sortText = try options.choice("sort", default: "created", from: ["created", "category", "name", "status", "attempts"])
        let order = try options.choice("order", default: "asc", from: ["asc", "desc"])
        let limit = try options.int("limit", default: 1_000, in: 1...10_000_000)
        guard FileManager.default.fileExists(atPath: path) else { throw MonitorError.noStore(path) }

        // Read-only: the monitor may look at a store a running app is using, and changes nothing.
        let store = try EventStore(path: path, limits: .unlimited, readOnly: true)
        defer { store.close() }
        let sort: StoreQuery.Sort = switch sortText {
        case "category": .category
        case "name": .name
        case "status": .status
        case "attempts": .attempts
        default: .createdAt
        }
        let status = EventStatus(rawValue: statusText)
        let rows = try store.query(StoreQuery(status: status, sort: sort, ascending: order == "asc", limit: limit))
        let records = rows.map { MonitorRecord($0) }
        switch format {
        case "json": say(try MonitorExport.json(records))
        case "csv": say(MonitorExport.csv(records), terminator: "")
        default:
            say(MonitorExport.table(records), terminator: "")
            say("\(store.counts())")
        }
        return 0
    }
}

/// The monitor could not read what it was pointed at.
enum MonitorError: Error, CustomStringConvertible {
    case noStore(String)
    var description: String {
        switch self {
        case .noStore(let path): "no store at \(path)"
        }
    }
}
