import Foundation

/// A weak reference that can be filled in after the closures capturing it are made.
final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    // Safe: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private weak var stored: Value?
    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
