@_spi(Tasks) import Dispatcher
import Foundation
import Tracking

/// Runs the storage steps of lifecycle moments one after another, in the order the moments
/// came: a release for suspension that is still running when the app returns to the foreground
/// finishes before the storage is taken back, never after it.
final class SuspensionSteps: Sendable {
    private let last = LockedValue<Task<Void, Never>?>(nil)

    /// Queues `step` after every step queued before it, and returns the task running it.
    @discardableResult
    func enqueue(_ step: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        last.withLock { last in
            let previous = last
            let task = LibraryTask.start {
                await previous?.value
                await step()
            }
            last = task
            return task
        }
    }
}
