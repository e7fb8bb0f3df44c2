import DataQuality
import Dispatcher
import Foundation
import Tracking

extension Analytics {
    /// Where the local web inspector serves, `http://127.0.0.1:PORT/`, when
    /// ``AnalyticsConfiguration/inspector`` is set and it could listen; `nil` otherwise (a port
    /// in use is reported in ``diagnostics``, and the runtime runs without it).
    public var inspectorURL: URL? { inspector?.server.url }

    /// The inspector's server and the receipts it shows.
    struct Inspection: Sendable {
        let server: InspectorServer
        let receipts: InspectorReceipts
    }

    /// Starts the inspector for `dispatcher` when `settings` ask for it; a failure to listen
    /// is a diagnostic, not an error of the runtime.
    static func startInspector(
        _ settings: AnalyticsConfiguration.Inspector?, dispatcher: Dispatcher, diagnostics: Diagnostics
    ) -> Inspection? {
        guard let settings else { return nil }
        let receipts = InspectorReceipts()
        do {
            let server = try InspectorServer.start(dispatcher: dispatcher, port: UInt16(clamping: settings.port),
                                                   receipts: { receipts.receipts(of: $0) })
            return Inspection(server: server, receipts: receipts)
        } catch {
            diagnostics.record(.configuration, code: "inspector", message: "the inspector could not start: \(error)")
            return nil
        }
    }

    /// `plugins`, each wrapped so that its receipts reach the inspector while it is watched.
    static func tapped(_ plugins: [any EventReporterPlugin], by inspection: Inspection?) -> [any EventReporterPlugin] {
        guard let inspection else { return plugins }
        return plugins.map { InspectorReceiptTap(plugin: $0, server: inspection.server, log: inspection.receipts) }
    }
}
