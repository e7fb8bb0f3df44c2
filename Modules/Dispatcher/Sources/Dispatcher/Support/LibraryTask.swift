/// Starts the library's own unstructured tasks: on Linux on ``LibraryExecutor`` (so the
/// library never wakes libdispatch's pool monitor), elsewhere on Swift's cooperative pool.
///
/// Every task the SDK's modules start goes through here, never `Task {}` directly: a task of
/// the library started on the global executor would add a wake-up a second, for the life of a
/// Linux process, to every app that links it. The task's children, and the actors and
/// nonisolated functions it calls, run on the same executor. Not public API: the SDK's modules
/// reach it with `@_spi(Tasks) import Dispatcher`.
@_spi(Tasks)
public enum LibraryTask {
    /// Starts `operation` as an unstructured task, with the current task's priority and task
    /// values (as `Task {}` does), not isolated to any actor.
    @discardableResult
    public static func start<Success: Sendable>(priority: TaskPriority? = nil,
                                                _ operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        #if os(Linux)
        return Task(executorPreference: LibraryExecutor.shared, priority: priority, operation: operation)
        #else
        return Task(priority: priority, operation: operation)
        #endif
    }

    /// Whether the library's tasks run on its own executor rather than Swift's global one.
    public static var runsOnOwnExecutor: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }
}
