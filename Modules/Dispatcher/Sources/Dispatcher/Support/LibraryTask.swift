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
        // Always true on Linux; it names the Apple releases that have task executors.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return startOnLibraryExecutor(priority: priority, operation)
        }
        #endif
        return Task(priority: priority, operation: operation)
    }

    /// Runs `body`, the work of one of the library's public async functions, where the
    /// library's tasks run: on Linux on ``LibraryExecutor`` (so an app awaiting the library from
    /// its main actor starts no task on Swift's global executor), elsewhere off the caller's
    /// actor, on Swift's pool. It runs isolated to the caller's actor (`isolation`, which the
    /// public functions take the same way), so the caller's task reaches it without a hop.
    public static func run<Success: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @Sendable () async throws(Failure) -> Success
    ) async throws(Failure) -> Success {
        #if os(Linux)
        // Always true on Linux; it names the Apple releases that have task executors.
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return try await runOnLibraryExecutor(isolation: isolation, body)
        }
        #endif
        return try await offCallersActor(body)
    }

    #if os(Linux)
    /// ``start(priority:_:)`` on Linux: a task that prefers ``LibraryExecutor``.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func startOnLibraryExecutor<Success: Sendable>(
        priority: TaskPriority?, _ operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        Task(executorPreference: LibraryExecutor.shared, priority: priority, operation: operation)
    }

    /// ``run(isolation:_:)`` on Linux: `body` with ``LibraryExecutor`` preferred.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private static func runOnLibraryExecutor<Success: Sendable, Failure: Error>(
        isolation: isolated (any Actor)?, _ body: @Sendable () async throws(Failure) -> Success
    ) async throws(Failure) -> Success {
        try await withTaskExecutorPreference(LibraryExecutor.shared, isolation: isolation, operation: body)
    }
    #endif

    /// Runs `body` on Swift's global executor, as any nonisolated async function does.
    private static func offCallersActor<Success: Sendable, Failure: Error>(
        _ body: @Sendable () async throws(Failure) -> Success
    ) async throws(Failure) -> Success {
        try await body()
    }

    /// Whether the library's tasks run on its own executor rather than Swift's global one.
    static var runsOnOwnExecutor: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }
}
