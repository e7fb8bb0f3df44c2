import DataQuality
import Dispatcher
import Foundation
import Tracking

extension AnalyticsConfiguration: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case storePath = "store", appID = "appId", destination, batch, retry, strategies, contractPath = "contract"
        case consentCategories, redaction, session, duplicateWindow, diagnostics, lifecycle, deliveredHistory, inspector
    }

    /// The delivery triggers by the names a configuration uses.
    static let strategyNames: [(name: String, strategy: BatchDispatchStrategy)] = [
        ("boot", .boot), ("willEnterForeground", .willEnterForeground), ("didEnterBackground", .didEnterBackground),
        ("reachabilityPings", .reachabilityPings), ("initialEvents", .initialEvents),
    ]

    /// The names of the delivery triggers on, in the order ``strategyNames`` lists them.
    var strategyNamesInUse: [String] { Self.strategyNames.filter { strategies.contains($0.strategy) }.map(\.name) }

    /// Decodes a configuration; `store` is required, absent keys keep their defaults, unknown
    /// keys are errors. Call ``validate()`` (the throwing initializers do) to check the values.
    public init(from decoder: any Decoder) throws {
        try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(storePath: try container.decode(String.self, forKey: .storePath))
        appID = try container.decodeIfPresent(String.self, forKey: .appID) ?? appID
        destination = try container.decodeIfPresent(DestinationSettings.self, forKey: .destination) ?? destination
        batch = try container.decodeIfPresent(BatchConfiguration.self, forKey: .batch) ?? batch
        retry = try container.decodeIfPresent(RetryPolicy.self, forKey: .retry) ?? retry
        if let names = try container.decodeIfPresent([String].self, forKey: .strategies) {
            var strategies: BatchDispatchStrategy = []
            for name in names {
                guard let known = Self.strategyNames.first(where: { $0.name == name }) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .strategies, in: container,
                        debugDescription: "unknown strategy '\(name)' (known: \(Self.strategyNames.map(\.name).joined(separator: ", ")))")
                }
                strategies.insert(known.strategy)
            }
            self.strategies = strategies
        }
        contractPath = try container.decodeIfPresent(String.self, forKey: .contractPath)
        consentCategories = try container.decodeIfPresent([String].self, forKey: .consentCategories) ?? consentCategories
        redaction = try container.decodeIfPresent(Redaction.self, forKey: .redaction) ?? redaction
        session = try container.decodeIfPresent(Session.self, forKey: .session) ?? session
        duplicateWindow = try container.decodeIfPresent(Double.self, forKey: .duplicateWindow) ?? duplicateWindow
        diagnostics = try container.decodeIfPresent(DiagnosticsOptions.self, forKey: .diagnostics) ?? diagnostics
        lifecycle = try container.decodeIfPresent(Lifecycle.self, forKey: .lifecycle) ?? lifecycle
        deliveredHistory = try container.decodeIfPresent(Int.self, forKey: .deliveredHistory) ?? deliveredHistory
        inspector = try container.decodeIfPresent(Inspector.self, forKey: .inspector)
    }

    /// Encodes the configuration with the keys ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storePath, forKey: .storePath)
        try container.encode(appID, forKey: .appID)
        try container.encode(destination, forKey: .destination)
        try container.encode(batch, forKey: .batch)
        try container.encode(retry, forKey: .retry)
        try container.encode(strategyNamesInUse, forKey: .strategies)
        try container.encodeIfPresent(contractPath, forKey: .contractPath)
        try container.encode(consentCategories, forKey: .consentCategories)
        try container.encode(redaction, forKey: .redaction)
        try container.encode(session, forKey: .session)
        try container.encode(duplicateWindow, forKey: .duplicateWindow)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encode(lifecycle, forKey: .lifecycle)
        try container.encode(deliveredHistory, forKey: .deliveredHistory)
        try container.encodeIfPresent(inspector, forKey: .inspector)
    }
}
