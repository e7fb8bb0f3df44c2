import Dispatcher
import Foundation
import Tracking

extension AnalyticsConfiguration {
    /// Checks every value, without touching the file system or the network.
    /// - Throws: `ConfigurationError` naming the first invalid field by its JSON path
    ///   (`batch.deliverySize`, `destination.endpoint`, `redaction.keys[1]`).
    public func validate() throws {
        func check(_ ok: Bool, _ field: String, _ reason: @autoclosure () -> String) throws {
            if !ok { throw ConfigurationError(field: field, reason: reason()) }
        }
        func nested(_ section: String, _ body: () throws -> Void) throws {
            do { try body() } catch var error as ConfigurationError {
                error.field = section + "." + error.field
                throw error
            }
        }
        try check(!storePath.isEmpty, "store", "must not be empty")
        try check(!storePath.hasSuffix("/"), "store", "names a folder ('\(storePath)'); give a file path, for example '\(storePath)events.sqlite'")
        try check(!appID.isEmpty, "appId", "must not be empty")
        try destination.validate()
        try nested("batch") { try batch.validate() }
        try nested("retry") { try retry.validate() }
        if let contractPath { try check(!contractPath.isEmpty, "contract", "must not be empty when given") }
        if let index = consentCategories.firstIndex(where: \.isEmpty) {
            throw ConfigurationError(field: "consentCategories[\(index)]", reason: "must not be empty")
        }
        if let index = redaction.keys.firstIndex(where: \.isEmpty) {
            throw ConfigurationError(field: "redaction.keys[\(index)]", reason: "must not be empty")
        }
        try check(session.foregroundTimeout.isFinite && session.foregroundTimeout > 0, "session.foregroundTimeout",
                  "must be a positive number of seconds, got \(session.foregroundTimeout)")
        try check(session.backgroundTimeout.isFinite && session.backgroundTimeout > 0, "session.backgroundTimeout",
                  "must be a positive number of seconds, got \(session.backgroundTimeout)")
        try check(duplicateWindow.isFinite && duplicateWindow >= 0, "duplicateWindow",
                  "must be a non-negative number of seconds, got \(duplicateWindow)")
        try check(diagnostics.burst >= 1, "diagnostics.burst", "must be at least 1, got \(diagnostics.burst)")
        try check(diagnostics.perMinute.isFinite && diagnostics.perMinute >= 0, "diagnostics.perMinute",
                  "must be a non-negative number, got \(diagnostics.perMinute)")
        try check(lifecycle.drainTimeout.isFinite && lifecycle.drainTimeout > 0 && lifecycle.drainTimeout <= 600, "lifecycle.drainTimeout",
                  "must be between 0 and 600 seconds, got \(lifecycle.drainTimeout)")
        try check(deliveredHistory >= 0, "deliveredHistory", "must not be negative, got \(deliveredHistory)")
        if let inspector {
            try check((0...65_535).contains(inspector.port), "inspector.port",
                      "must be a port between 1 and 65535, or 0 for any free port; got \(inspector.port)")
        }
    }
}
