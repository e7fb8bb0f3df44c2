@_spi(Tasks) @testable import Dispatcher
import Foundation
import Testing
import TestSupport

/// The library's own tasks stay on its own serial queues on Linux, through every kind of
/// suspension: never on Swift's global executor, whose first job starts libdispatch's
/// once-a-second pool monitor for the life of the process.
@Suite("Library tasks run on the library's own executor")
struct LibraryTaskTests {
    /// An actor of the kind the Dispatcher uses (default executor).
    actor Counter {
        var value = 0
        func add() -> Int {
            value += 1
            return value
        }
    }

    /// The name of the thread running this code: libdispatch names a worker after its root
    /// queue, `com.apple.root.default-qos.overcommit` for serial queues' workers and
    /// `com.apple.root.default-qos` for the global executor's (Linux keeps the last 15 bytes).
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A nonisolated async function: it runs on the calling task's executor preference.
    static func nonisolatedStep() async -> String { LibraryTaskTests.threadName() }

    #if os(Linux)
    @Test("a task started by LibraryTask runs on a serial queue's worker, before and after an actor hop, a continuation, a child task and a task group")
    func staysOnOwnQueues() async throws {
        let counter = Counter()
        let names = await LibraryTask.start { () -> [String] in
            var names = [LibraryTaskTests.threadName()]
            _ = await counter.add()
            names.append(LibraryTaskTests.threadName())
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue(label: "elsewhere").asyncAfter(deadline: .now() + 0.01) { continuation.resume() }
            }
            names.append(LibraryTaskTests.threadName())
            async let child = LibraryTaskTests.nonisolatedStep()
            names.append(await child)
            names += await withTaskGroup(of: String.self) { group in
                for _ in 0..<4 { group.addTask { LibraryTaskTests.threadName() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            return names
        }.value
        #expect(names.count == 8)
        for name in names {
            #expect(name.hasSuffix("overcommit"), "a library task ran on '\(name)', not on one of the library's serial queues")
        }
    }

    @Test("a task started with Task {} runs on the global executor: the check above tells them apart")
    func globalExecutorIsTold() async {
        let name = await Task.detached { LibraryTaskTests.threadName() }.value
        #expect(!name.hasSuffix("overcommit"), "\(name)")
        #expect(name.hasSuffix("default-qos"), "\(name)")
    }
    #endif

    @Test("the executor spreads jobs over its queues and runs every one")
    func spreadsOverQueues() async throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let executor = LibraryExecutor(width: 3)
        #expect(executor.width == 3)
        #expect(LibraryExecutor(width: 0).width == 1, "a width below one still gives one queue")
        let results = await withTaskGroup(of: Int.self) { group in
            for index in 0..<50 { group.addTask(executorPreference: executor) { index } }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(results == Set(0..<50))
        #expect((2...4).contains(LibraryExecutor.defaultWidth))
        #expect(LibraryTask.runsOnOwnExecutor == isLinux)
    }

    /// The measuring task runs on a thread of its own (`ThreadTaskExecutor`), so that a pool
    /// kept busy by other tests running beside it does not slow the measurement; a job stuck
    /// behind the held queue would wait until its release, 5 s in.
    @Test("a job that holds its queue does not hold up the rest: the jobs after it go to the queue that is free")
    func blockedQueueIsAvoided() async throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let executor = LibraryExecutor(width: 2)
        let measuring = ThreadTaskExecutor(name: "LibraryTaskTests.measuring")
        defer { measuring.shutdown() }
        let release = DispatchSemaphore(value: 0)
        // Released after 5 s whatever happens, so that a job stuck behind it ends the test late, not never.
        DispatchQueue(label: "release").asyncAfter(deadline: .now() + 5) { release.signal() }
        let blocking = Task(executorPreference: executor) { release.wait() }
        let (ran, elapsed) = await Task(executorPreference: measuring) { () -> (Int, TimeInterval) in
            let deadline = Date(timeIntervalSinceNow: 2)
            while executor.jobsByQueue.reduce(0, +) == 0, Date() < deadline { usleep(1_000) }
            let started = Date()
            var ran = 0
            for index in 0..<20 { ran += await Task(executorPreference: executor) { index }.value >= 0 ? 1 : 0 }
            return (ran, Date().timeIntervalSince(started))
        }.value
        await blocking.value
        #expect(ran == 20)
        #expect(elapsed < 4, "the jobs waited \(elapsed) s, behind the held queue")
        // A job is counted out just after it ran: allow it a moment.
        let settled = Date(timeIntervalSinceNow: 2)
        while executor.jobsByQueue != [0, 0], Date() < settled { usleep(1_000) }
        #expect(executor.jobsByQueue == [0, 0], "every job counted out: \(executor.jobsByQueue)")
    }

    @Test("no source of the SDK's modules starts a task but through LibraryTask (Apple-only files aside, which run on Apple's pool)")
    func noStrayTasks() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let modules = root.appendingPathComponent("Modules")
        let pattern = try NSRegularExpression(pattern: #"(?<![A-Za-z_.])Task(\.detached)?\s*(\{|\()"#)
        var scanned = 0
        var strays: [String] = []
        let files = FileManager.default.enumerator(at: modules, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            let path = file.path
            guard file.pathExtension == "swift", path.contains("/Sources/"), !path.contains("/Apple/"),
                  file.lastPathComponent != "LibraryTask.swift" else { continue }
            scanned += 1
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let range = NSRange(line.startIndex..., in: line)
                if pattern.firstMatch(in: line, range: range) != nil { strays.append("\(file.lastPathComponent):\(number + 1): \(line)") }
            }
        }
        #expect(scanned > 100, "the module sources were found under \(modules.path)")
        #expect(strays.isEmpty, "tasks started without LibraryTask: \(strays)")
    }

    private var isLinux: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }
}
