@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// Runs the storage steps of lifecycle moments one after another, in the order the moments
/// came: a release for suspension that is still running when the app returns to the foreground
/// finishes before the storage is taken back, never after it.
final class SuspensionSteps: Sendable {
    /// Waits for the step queued last. A closure, not the `Task` itself: a `Task` in the lock's
    /// type would make `Analytics`' start look up `Never: Error` in the runtime's conformance
    /// records, on the caller's thread.
    private struct Previous: Sendable {
        let wait: @Sendable () async -> Void
    }

    private let last = LockedValue<Previous?>(nil)

    /// Queues `step` after every step queued before it, and returns the task running it.
    @discardableResult
    func enqueue(_ step: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        last.withLock { last in
            let previous = last
            let task = LibraryTask.start {
                await previous?.wait()
                await step()
            }
            last = Previous { await task.value }
            return task
        }
    }
}
