import Foundation

/// Where the runtime asks the system for time to finish its work once the app is in the
/// background: `UIApplication`'s background tasks in an app, `ProcessInfo`'s expiring
/// activities in an app extension or on watchOS, nothing elsewhere (``NoBackgroundTime``).
///
/// The adapters for Apple platforms live in `Apple/`; tests use a fake.
protocol BackgroundTimeProvider: Sendable {
    /// Asks for time to finish the work named `reason`. `expired` is called, at most once and on
    /// any thread, when the system is about to take the time back.
    /// - Returns: the time granted; the caller ends it exactly once, with ``BackgroundTimeGrant/end()``.
    func begin(reason: String, expired: @escaping @Sendable () -> Void) -> any BackgroundTimeGrant
}

/// Time granted by a ``BackgroundTimeProvider``, given back with ``end()``.
protocol BackgroundTimeGrant: Sendable {
    /// Gives the time back to the system. The runtime calls it exactly once per grant.
    func end()
}

/// The provider where the system suspends nothing (macOS, Linux): it grants nothing and never expires.
struct NoBackgroundTime: BackgroundTimeProvider {
    /// Returns a grant whose end does nothing.
    func begin(reason: String, expired: @escaping @Sendable () -> Void) -> any BackgroundTimeGrant { NoGrant() }

    private struct NoGrant: BackgroundTimeGrant {
        func end() {}
    }
}
