import Foundation

/// The value a feature holds to send its events: cheap to copy, safe to share across threads.
///
/// A reporter runs each event through its ``EventProcessor``s, then hands it to every
/// ``EventReporterPlugin``. It keeps no state of its own and takes no lock, so sending from
/// many threads at once is safe, and a slow plugin delays but never corrupts the others.
///
/// ```swift
/// let reporter = EventReporter<Cart>(plugins: [ConsoleReporter.standardOutput()])
/// reporter.send(name: .checkout, action: .pay, userData: ["quantity": 2])
/// ```
public struct EventReporter<T: EventType>: Sendable {
    /// The destinations, in the order they receive events.
    public let plugins: [any EventReporterPlugin]
    /// The stages every event passes before the destinations, in order.
    public let processors: [any EventProcessor]
    /// Called at once when a feature sends a name/action pair its ``EventType`` declares invalid.
    public let violationHandler: ViolationHandler

    /// Creates a reporter.
    /// - Parameters:
    ///   - plugins: the destinations.
    ///   - processors: stages run before the destinations (context, consent, validation).
    ///   - violationHandler: what to do at once with an invalid name/action pair; the event is
    ///     still delivered, flagged. Defaults to ``ViolationHandler/standard``.
    public init(
        plugins: [any EventReporterPlugin] = [],
        processors: [any EventProcessor] = [],
        violationHandler: ViolationHandler = .standard
    ) {
        self.plugins = plugins
        self.processors = processors
        self.violationHandler = violationHandler
    }

    /// A reporter that prints every event to standard output.
    public static var console: EventReporter<T> { EventReporter(plugins: [ConsoleReporter.standardOutput()]) }

    /// A reporter for another feature that shares these plugins, processors and handler.
    public func reporter<Other: EventType>(for feature: Other.Type = Other.self) -> EventReporter<Other> {
        EventReporter<Other>(plugins: plugins, processors: processors, violationHandler: violationHandler)
    }

    /// Sends one event.
    /// - Parameters:
    ///   - name: what happened.
    ///   - action: how.
    ///   - userData: typed data, written as a dictionary literal.
    /// - Returns: the receipts of the plugins that handled it.
    @discardableResult
    public func send(name: T.Name, action: T.Action, userData: UserData = [:]) -> [Receipt] {
        deliver(makeEvent(name: name, action: action, userData: userData))
    }

    /// Sends one of the feature's declared events (valid by construction).
    @discardableResult
    public func send<Event: FeatureEvent>(_ event: Event) -> [Receipt] where Event.Feature == T {
        send(name: event.name, action: event.action, userData: event.userData)
    }

    /// Sends several events at once; plugins that support it persist them together.
    @discardableResult
    public func send(contentsOf events: [(name: T.Name, action: T.Action, userData: UserData)]) -> [Receipt] {
        var processed: [TrackedEvent] = []
        processed.reserveCapacity(events.count)
        for item in events {
            if let event = process(makeEvent(name: item.name, action: item.action, userData: item.userData)) {
                processed.append(event)
            }
        }
        guard !processed.isEmpty else { return [] }
        return plugins.flatMap { $0.send(contentsOf: processed) }
    }

    /// Builds the event every processor and plugin sees: userData nested deeper than
    /// ``UserDataValue/maximumDepth`` is cut here, once, and flagged.
    private func makeEvent(name: T.Name, action: T.Action, userData: UserData) -> TrackedEvent {
        let findings = userData.findings()
        var event = TrackedEvent(category: T.category, name: name.rawValue, action: action.rawValue,
                                 userData: findings.tooDeep ? userData.truncatedToMaximumDepth() : userData)
        if !T.isValid(name: name, action: action) {
            let flag = EventFlag.invalidPair(name: name.rawValue, action: action.rawValue)
            event.flag(flag)
            violationHandler.report(event, flag)
        }
        if findings.tooDeep { event.flag(.userDataTruncated) }
        if findings.nonFiniteNumber { event.flag(.nonFiniteNumber) }
        return event
    }

    private func process(_ event: TrackedEvent) -> TrackedEvent? {
        var current = event
        for processor in processors {
            guard let next = processor.process(current) else { return nil }
            current = next
        }
        return current
    }

    private func deliver(_ event: TrackedEvent) -> [Receipt] {
        guard let processed = process(event) else { return [] }
        var receipts: [Receipt] = []
        for plugin in plugins {
            if let receipt = plugin.send(processed) { receipts.append(receipt) }
        }
        return receipts
    }
}
