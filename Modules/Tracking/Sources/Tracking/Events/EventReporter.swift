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
    /// The plugins, in the order they receive events.
    public let plugins: [any EventReporterPlugin]
    /// The stages every event passes before the plugins, in order.
    public let processors: [any EventProcessor]
    /// Called at once when an event is sent flagged as a caller's mistake: a name/action pair
    /// the ``EventType`` declares invalid, a reserved category, an empty screen name.
    public let violationHandler: ViolationHandler

    /// Creates a reporter.
    /// - Parameters:
    ///   - plugins: where events go, in order (the console, a dispatcher, a test recorder).
    ///   - processors: stages run before the plugins (context, consent, validation).
    ///   - violationHandler: what to do at once with a caller's mistake (an invalid name/action
    ///     pair, a reserved category, an empty screen name); the event is still delivered, flagged. Defaults to ``ViolationHandler/standard``.
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
    @discardableResult @inlinable
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

    /// Records that a screen was shown: an event of kind ``EventKind/screen`` (category
    /// `"$screen"`, name = `name`, action `"view"`, userData = `properties`), run through the
    /// same processors and plugins as ``send(name:action:userData:)``.
    ///
    /// An empty or blank `name` is still sent, flagged ``EventFlag/emptyScreenName`` and
    /// reported to the ``violationHandler``.
    /// - Parameters:
    ///   - name: the screen's name, for example `"Basket"`.
    ///   - properties: data about the screen.
    /// - Returns: the receipts of the plugins that handled it.
    @discardableResult
    public func screen(name: String, properties: UserData = [:]) -> [Receipt] {
        let mistakes: [EventFlag] = name.allSatisfy(\.isWhitespace) ? [.emptyScreenName] : []
        return deliver(makeEvent(kind: .screen, name: name, action: "view", userData: properties, mistakes: mistakes))
    }

    /// Records who the user is: an event of kind ``EventKind/identify`` (category
    /// `"$identify"`, name and action `"identify"`, userData = `traits`), run through the same
    /// processors and plugins as ``send(name:action:userData:)``. The user id itself comes from
    /// the context the processors add (log the user in first).
    /// - Parameter traits: what is known about the user, for example `["plan": "premium"]`.
    /// - Returns: the receipts of the plugins that handled it.
    @discardableResult
    public func identify(traits: UserData = [:]) -> [Receipt] {
        deliver(makeEvent(kind: .identify, name: "identify", action: "identify", userData: traits))
    }

    /// Builds a feature's event, checking its name/action pair and its category.
    ///
    /// Inlined into the sender, where `T` is known: the pair check, the category and the raw
    /// values are then direct calls, not lookups of `T`'s witnesses on every send.
    @inlinable
    func makeEvent(name: T.Name, action: T.Action, userData: UserData) -> TrackedEvent {
        var mistakes: [EventFlag] = []
        if !T.isValid(name: name, action: action) {
            mistakes.append(.invalidPair(name: name.rawValue, action: action.rawValue))
        }
        var category = T.category
        if EventKind.isReserved(category) {
            mistakes.append(.reservedCategory(category))
            category = String(category.drop { $0 == EventKind.reservedPrefix })
        }
        return makeEvent(category: category, name: name.rawValue, action: action.rawValue, userData: userData,
                         mistakes: mistakes)
    }

    /// Builds the event of one of the library's own calls, under its reserved category.
    private func makeEvent(kind: EventKind, name: String, action: String, userData: UserData,
                           mistakes: [EventFlag] = []) -> TrackedEvent {
        makeEvent(category: kind.category ?? T.category, name: name, action: action, userData: userData, mistakes: mistakes)
    }

    /// Builds the event every processor and plugin sees: userData nested deeper than
    /// ``UserDataValue/maximumDepth`` is cut here, once, and flagged. `mistakes` (the caller's)
    /// are flagged first and each reported to the ``violationHandler``.
    @usableFromInline
    func makeEvent(category: String, name: String, action: String, userData: UserData,
                   mistakes: [EventFlag]) -> TrackedEvent {
        let findings = userData.findings()
        // One clock reading for the id and the timestamp.
        let now = Date()
        // The usual event, nothing to cut or flag, is returned as made.
        if mistakes.isEmpty, !findings.tooDeep, !findings.nonFiniteNumber {
            return TrackedEvent(id: EventID.make(now: now), reading: now, category: category, name: name, action: action, userData: userData)
        }
        var event = TrackedEvent(id: EventID.make(now: now), reading: now, category: category, name: name, action: action,
                                 userData: findings.tooDeep ? userData.truncatedToMaximumDepth() : userData)
        if !mistakes.isEmpty { flag(mistakes, on: &event) }
        if findings.tooDeep { event.flag(.userDataTruncated) }
        if findings.nonFiniteNumber { event.flag(.nonFiniteNumber) }
        return event
    }

    /// Flags `event` with each of `mistakes`, reporting each to the ``violationHandler``.
    private func flag(_ mistakes: [EventFlag], on event: inout TrackedEvent) {
        for mistake in mistakes {
            event.flag(mistake)
            violationHandler.report(event, mistake)
        }
    }

    /// Runs every processor on `event`, in place; `false` when one stops it.
    ///
    /// Each stage is handed to a generic function, borrowed: calling a method on an element of
    /// an array of existentials copies the existential first (retaining and releasing the
    /// stage's parts, for every stage of every event); opening it as a borrowed argument does not.
    private func process(_ event: inout TrackedEvent) -> Bool {
        for index in processors.indices where !Self.run(processors[index], on: &event) { return false }
        return true
    }

    private static func run<Stage: EventProcessor>(_ stage: borrowing Stage, on event: inout TrackedEvent) -> Bool {
        stage.process(&event)
    }

    private static func send<Plugin: EventReporterPlugin>(_ event: TrackedEvent, to plugin: borrowing Plugin) -> Receipt? {
        plugin.send(event)
    }

    /// `event` after every processor, or `nil` when one stops it.
    private func process(_ event: consuming TrackedEvent) -> TrackedEvent? {
        var event = event
        return process(&event) ? event : nil
    }

    @usableFromInline
    func deliver(_ event: consuming TrackedEvent) -> [Receipt] {
        var event = event
        guard process(&event) else { return [] }
        // Plugins are borrowed too (see ``process(_:)``).
        if plugins.count == 1 { return Self.send(event, to: plugins[0]).map { [$0] } ?? [] }
        var receipts: [Receipt] = []
        receipts.reserveCapacity(plugins.count)
        for index in plugins.indices {
            if let receipt = Self.send(event, to: plugins[index]) { receipts.append(receipt) }
        }
        return receipts
    }
}
