import Foundation
import Tracking

/// The article's example feature: overrides its category.
enum Cart: EventType {
    enum Name: String, Sendable { case payment, add, checkout }
    enum Action: String, Sendable { case select, pay, other }
    static let category = "Cart"

    static func isValid(name: Name, action: Action) -> Bool {
        switch (name, action) {
        case (.payment, .select), (.add, .select), (.add, .other), (.checkout, .pay): true
        default: false
        }
    }
}

/// A feature that keeps the default category (its type name) and allows every pair.
enum Search: EventType {
    enum Name: String, Sendable { case query }
    enum Action: String, Sendable { case submitted }
}

/// Cart's valid events as values.
enum CartEvent: FeatureEvent {
    typealias Feature = Cart
    case purchase(quantity: Int, cardType: String)
    case addedOne

    var name: Cart.Name {
        switch self {
        case .purchase: .checkout
        case .addedOne: .add
        }
    }

    var action: Cart.Action {
        switch self {
        case .purchase: .pay
        case .addedOne: .select
        }
    }

    var userData: UserData {
        switch self {
        case .purchase(let quantity, let cardType): ["quantity": .int(quantity), "cardType": .string(cardType)]
        case .addedOne: [:]
        }
    }
}

/// Collects what a ``ViolationHandler`` reports, thread-safely.
final class ViolationLog: @unchecked Sendable {
    // Safe: `recorded` is only touched while holding `lock`.
    private let lock = NSLock()
    private var recorded: [(event: TrackedEvent, flag: EventFlag)] = []

    /// A handler that appends to this log.
    var handler: ViolationHandler { ViolationHandler { [self] event, flag in lock.withLock { recorded.append((event, flag)) } } }

    /// The reports so far.
    var reports: [(event: TrackedEvent, flag: EventFlag)] { lock.withLock { recorded } }
}

/// A plugin that counts how often it was called, thread-safely.
final class CountingPlugin: EventReporterPlugin, @unchecked Sendable {
    // Safe: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0

    /// How many events it received.
    var calls: Int { lock.withLock { count } }

    func send(_ event: TrackedEvent) -> Receipt? {
        lock.withLock { count += 1 }
        return nil
    }
}
