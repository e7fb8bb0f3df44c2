import Dispatcher
import Foundation

/// `demo inspect --store PATH [--port N] [--for SECONDS]`: the web inspector for a store on
/// disk, read-only, until interrupted (or for SECONDS).
enum InspectCommand {
    /// The options `inspect` parses and its help lists.
    static let spec = CommandSpec(
        name: "inspect",
        synopsis: "--store PATH [--port N] [--for SECONDS]",
        summary: """
        Serves the web inspector on 127.0.0.1 for a store on disk, read-only, as `monitor`
        reads it (events still only in the journal included), and prints its address.
        Runs until interrupted (Ctrl-C), or for SECONDS.
        Exit 0 when it served and stopped, 1 when the store is missing or cannot be read or
        the port is in use, 2 on a usage mistake.
        """,
        options: [
            .value("store", "PATH", "The store to read. Required."),
            .value("port", "N", "The port, 1 to 65535 (default: any free port)."),
            .value("for", "SECONDS", "Stop after SECONDS, 1 to 86400 (default: until interrupted)."),
        ],
        brief: "Serves the web inspector for a store on disk, read-only.")

    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, spec: spec)
        guard let path = options.value("store") else { throw UsageError("inspect needs --store PATH") }
        let port = options.value("port") == nil ? 0 : try options.int("port", default: 0, in: 1...65_535)
        let seconds = options.value("for") == nil ? nil : try options.int("for", default: 0, in: 1...86_400)
        try StoreFileCheck.require(path)
        let store = try StoreMonitor(storePath: path)
        defer { store.close() }
        let server = try InspectorServer.start(monitor: store, port: UInt16(port))
        defer { server.stop() }
        say("inspector: \(server.url.absoluteString)  (store \(path), read-only; Ctrl-C stops it)")
        if let seconds {
            try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
            return 0
        }
        // Until interrupted: Ctrl-C ends the process, which closes the socket; nothing is written.
        while true { try? await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }
}
