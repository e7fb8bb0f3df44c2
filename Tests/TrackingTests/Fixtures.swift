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
final class ViolationLog: Sendable {
    private let recorded = LockedValue<[(event: TrackedEvent, flag: EventFlag)]>([])

    /// A handler that appends to this log.
    var handler: ViolationHandler { ViolationHandler { [self] event, flag in recorded.withLock { $0.append((event, flag)) } } }

    /// The reports so far.
    var reports: [(event: TrackedEvent, flag: EventFlag)] { recorded.withLock { $0 } }
}

/// A plugin that counts how often it was called, thread-safely.
final class CountingPlugin: EventReporterPlugin, Sendable {
    private let count = LockedValue(0)

    /// How many events it received.
    var calls: Int { count.withLock { $0 } }

    func send(_ event: TrackedEvent) -> Receipt? {
        count.withLock { $0 += 1 }
        return nil
    }
}
