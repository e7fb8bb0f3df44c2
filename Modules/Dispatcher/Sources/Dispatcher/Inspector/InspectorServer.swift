import Foundation
import Tracking

/// A local web inspector: an HTTP server on 127.0.0.1 serving a page and a JSON API that show the
/// events of a live ``Dispatcher`` (or of a store on disk, read-only) with their status,
/// timeline, wire form and the Dispatcher's health, updated live over an event stream.
///
/// It costs nothing while nobody looks: one thread sleeps in `poll(2)` on the listening socket,
/// and the store is polled (every 250 ms) only while a page's stream is open. Nothing runs on
/// the send path. Only `127.0.0.1` is listened on; a request whose `Host` or `Origin` is not
/// `127.0.0.1:PORT` or `localhost:PORT` gets 403 (against DNS rebinding and other sites' pages),
/// as does one a browser marks as coming from another site (`Sec-Fetch-Site`, sent even where
/// `Origin` is not), and only GET and HEAD are served. Credentials (the Segment write key, request headers) are
/// never served.
///
/// ```swift
/// let inspector = try InspectorServer.start(dispatcher: dispatcher, port: 8089)
/// print("Inspector at \(inspector.url)")
/// // …
/// inspector.stop()  // or let go of it: it stops when released
/// ```
public final class InspectorServer: Sendable {
    /// The most connections open at once (streams included).
    static let maxConnections = 32

    private let listener: InspectorListener
    private let streams: InspectorStreams
    private let watch: InspectorWatch

    /// Serves a live Dispatcher. `receipts` returns the receipts recorded for an event (may be empty).
    /// - Parameters:
    ///   - dispatcher: the Dispatcher whose events, timelines and health are shown.
    ///   - port: the port on 127.0.0.1; 0 (the default) lets the system choose (see ``port``).
    ///   - receipts: the receipts recorded for an event, shown in its detail.
    /// - Throws: ``InspectorError/portInUse(port:)`` when the port is taken, or
    ///   ``InspectorError/cannotListen(call:port:errno:)``.
    public static func start(dispatcher: Dispatcher, port: UInt16 = 0,
                             receipts: @escaping @Sendable (UUID) -> [Receipt] = { _ in [] }) throws -> InspectorServer {
        try InspectorServer(source: DispatcherInspectorSource(dispatcher: dispatcher), port: port, receipts: receipts)
    }

    /// Serves a store on disk, read-only (journal-resident events included, as `demo monitor`).
    /// - Parameters:
    ///   - monitor: the store, opened for reading.
    ///   - port: the port on 127.0.0.1; 0 (the default) lets the system choose (see ``port``).
    /// - Throws: ``InspectorError/portInUse(port:)`` when the port is taken, or
    ///   ``InspectorError/cannotListen(call:port:errno:)``.
    public static func start(monitor: StoreMonitor, port: UInt16 = 0) throws -> InspectorServer {
        try InspectorServer(source: MonitorInspectorSource(monitor: monitor), port: port, receipts: { _ in [] })
    }

    private init(source: any InspectorSource, port: UInt16, receipts: @escaping @Sendable (UUID) -> [Receipt]) throws(InspectorError) {
        let listener = try InspectorListener(port: port, maxConnections: Self.maxConnections)
        let history = InspectorHistory()
        let watch = InspectorWatch()
        let streams = InspectorStreams(source: source, listener: listener, history: history, watch: watch) {
            InspectorRouter.health(of: source, history: history)
        }
        let router = InspectorRouter(source: source, port: listener.port, receipts: receipts, history: history,
                                     streams: streams, watch: watch)
        self.listener = listener
        self.streams = streams
        self.watch = watch
        listener.start(overflow: InspectorResponse.text("too many connections", status: 503).bytes()) { connection in
            router.serve(connection)
        }
    }

    /// The port listened on, on 127.0.0.1.
    public var port: UInt16 { listener.port }

    /// `http://127.0.0.1:PORT/`.
    public var url: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = Int(port)
        components.path = "/"
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// The address the listening socket is bound to (`127.0.0.1`), for tests.
    var boundAddress: String? { listener.boundAddress }

    /// Whether the store is being polled for streams (only while one is open), for tests.
    var isPolling: Bool { streams.isPolling }

    /// Why the server stopped accepting connections on its own (its socket failed), nil while it serves.
    var failure: String? { listener.failure }

    /// How many connections are open, streams included, for tests.
    var openConnections: Int { listener.openCount }

    /// Whether someone is looking: a stream is open, or an API request came in the last 5 seconds.
    public var isWatched: Bool { watch.isWatched }

    /// Closes the listening socket (the port is free when this returns) and every connection,
    /// streams included. Idempotent.
    public func stop() {
        listener.stop()
        streams.stop()
    }

    // Nothing the threads and queues hold refers to the server itself: dropping it stops it.
    deinit { stop() }
}
