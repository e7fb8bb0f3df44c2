import DataQuality
import Dispatcher
import Foundation
import Tracking

extension AnalyticsConfiguration {
    /// The short hash of this configuration (write key left out), reported in every event's
    /// context so a change of settings can be seen in the data: the first 12 hex digits of the
    /// SHA-256 of the configuration as ``encode(to:)`` writes it, with sorted keys, the write key
    /// as `"set"` when there is one, and no `inspector` (a development tool: turning it on does
    /// not change what the events say).
    public var hash: String { QualityConfiguration.hash(ofTree: hashedTree) }

    /// What ``hash`` is the hash of: the keys and values ``encode(to:)`` writes, built without
    /// `Codable`, whose first use in a process (a runtime lookup of each type's coding keys)
    /// would cost the caller's thread more than the rest of the start. A test holds the two to
    /// the same hash.
    var hashedTree: UserDataValue {
        func number(_ value: Double) -> UserDataValue {
            // `JSONEncoder` writes a whole number without `.0`.
            value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
        }
        func strings(_ values: [String]) -> UserDataValue { .array(values.map(UserDataValue.string)) }
        var tree: [String: UserDataValue] = [
            "store": .string(storePath),
            "appId": .string(appID),
            "destination": destinationTree,
            "batch": .object([
                "maxQueueSize": .int(batch.maxQueueSize), "maxQueueBytes": .int(batch.maxQueueBytes),
                "overflowQueueSize": .int(batch.overflowQueueSize), "deliverySize": .int(batch.deliverySize),
                "flushInterval": number(batch.flushInterval), "initialEventsCount": .int(batch.initialEventsCount),
            ]),
            "retry": .object([
                "baseDelay": number(retry.baseDelay), "multiplier": number(retry.multiplier),
                "maxDelay": number(retry.maxDelay), "jitter": .string(retry.jitter.name),
                "maxAttempts": .int(retry.maxAttempts), "maxAge": number(retry.maxAge),
                "maxRetryAfter": number(retry.maxRetryAfter),
            ]),
            "strategies": strings(strategyNamesInUse),
            "consentCategories": strings(consentCategories),
            "redaction": .object(["keys": strings(redaction.keys), "mode": .string(redaction.mode.rawValue)]),
            "session": .object([
                "foregroundTimeout": number(session.foregroundTimeout),
                "backgroundTimeout": number(session.backgroundTimeout),
            ]),
            "duplicateWindow": number(duplicateWindow),
            "diagnostics": .object([
                "trackAsEvents": .bool(diagnostics.trackAsEvents), "burst": .int(diagnostics.burst),
                "perMinute": number(diagnostics.perMinute),
            ]),
            "lifecycle": .object([
                "observeNotifications": .bool(lifecycle.observeNotifications),
                "drainOnTerminationSignals": .bool(lifecycle.drainOnTerminationSignals),
                "drainTimeout": number(lifecycle.drainTimeout),
            ]),
            "deliveredHistory": .int(deliveredHistory),
        ]
        if let contractPath { tree["contract"] = .string(contractPath) }
        return .object(tree)
    }

    /// The destination as its `encode(to:)` writes it, the write key as `"set"`.
    private var destinationTree: UserDataValue {
        var tree: [String: UserDataValue] = [
            "format": .string(destination.format.rawValue),
            "writeKeyIn": .string(destination.writeKeyInName),
        ]
        if let endpoint = destination.endpointText { tree["endpoint"] = .string(endpoint) }
        if destination.writeKey != nil { tree["writeKey"] = .string("set") }
        if let maxBatchBytes = destination.maxBatchBytes { tree["maxBatchBytes"] = .int(maxBatchBytes) }
        if let compression = destination.compression { tree["compression"] = .string(compression.rawValue) }
        return .object(tree)
    }
}
