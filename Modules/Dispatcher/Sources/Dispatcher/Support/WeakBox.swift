import Foundation
import Tracking

/// A weak reference that can be filled in after the closures capturing it are made.
final class WeakBox<Value: AnyObject & Sendable>: Sendable {
    private struct Reference: Sendable {
        weak var value: Value?
    }

    private let reference = LockedValue(Reference())

    var value: Value? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}
