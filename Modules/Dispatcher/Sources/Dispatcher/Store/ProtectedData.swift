#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a store that cannot be opened because the device's protected data is unavailable (iOS:
/// started before the first unlock after boot, as a prewarmed or background launch is) from
/// one that cannot be opened for good.
///
/// Protected files then answer `EPERM` or `EACCES` to `open`, and SQLite `SQLITE_AUTH`,
/// `SQLITE_PERM` or `SQLITE_CANTOPEN`; an app's own container is otherwise always writable, so
/// on iOS-family platforms those errors are taken to mean "wait for the unlock". Elsewhere no
/// error is.
enum ProtectedData {
    /// Replaces the platform's answer, for tests: `false` makes every failure to open count as
    /// protected data being unavailable; `true`, none. Read once, when a ``Dispatcher`` starts.
    @TaskLocal static var availableOverride: Bool?

    /// Whether `error`, met while opening the store, means that protected data is unavailable.
    /// - Parameter availableOverride: the test seam's value, captured when the Dispatcher started.
    static func isUnavailable(_ error: any Error, availableOverride: Bool?) -> Bool {
        guard let storeError = error as? StoreError else { return false }
        switch storeError {
        case .inUse, .notAStore, .corrupt, .closed, .diskFull, .notErased: return false
        case .cannotOpen, .readOnly, .sqlite: break
        }
        if let availableOverride { return !availableOverride }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        switch storeError {
        case .cannotOpen(_, _, let code): return code == EPERM || code == EACCES
        case .readOnly: return true
        default: return false
        }
        #else
        return false
        #endif
    }
}
