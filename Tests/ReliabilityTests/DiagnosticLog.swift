@testable import Dispatcher
import Foundation
import Tracking

/// Collects what a Dispatcher reports through `onDiagnostic`, thread-safely.
final class DiagnosticLog: Sendable {
    private let recorded = LockedValue<[DispatcherDiagnostic]>([])

    /// The closure to put in a `DispatcherConfiguration`.
    var handler: @Sendable (DispatcherDiagnostic) -> Void { { [self] diagnostic in recorded.withLock { $0.append(diagnostic) } } }

    /// Every message so far, in order.
    var messages: [String] { recorded.withLock { $0.map(\.description) } }

    /// Whether some message contains `text`.
    func contains(_ text: String) -> Bool { messages.contains { $0.contains(text) } }
}
