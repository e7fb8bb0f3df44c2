@testable import Dispatcher
import Foundation

/// Collects what a Dispatcher reports through `onDiagnostic`, thread-safely.
final class DiagnosticLog: @unchecked Sendable {
    // Safe: `recorded` is only touched while holding `lock`.
    private let lock = NSLock()
    private var recorded: [DispatcherDiagnostic] = []

    /// The closure to put in a `DispatcherConfiguration`.
    var handler: @Sendable (DispatcherDiagnostic) -> Void { { [self] diagnostic in lock.withLock { recorded.append(diagnostic) } } }

    /// Every message so far, in order.
    var messages: [String] { lock.withLock { recorded.map(\.description) } }

    /// Whether some message contains `text`.
    func contains(_ text: String) -> Bool { messages.contains { $0.contains(text) } }
}
