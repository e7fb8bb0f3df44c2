import Basket
import Dispatcher
import Foundation
import Onboarding
import Tracking
import Wishlist

/// `demo generate --count N --store PATH [--threads N] [--timeout SECONDS] [--print-ids]`: load
/// through a real Dispatcher with the default configuration, no delivery. The last line counts
/// sent, persisted, refused (with the reasons), evicted and stranded, and the CPU time used; the
/// exit status is 1 when anything was refused or stranded.
enum GenerateCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, valueOptions: ["count", "store", "threads", "timeout"], flagOptions: ["print-ids"])
        let count = try options.int("count", default: 1_000, in: 0...100_000_000)
        let threads = try options.int("threads", default: 1, in: 1...64)
        let timeout = try options.int("timeout", default: 120, in: 1...86_400)
        guard let store = options.value("store") else { throw UsageError("generate needs --store PATH") }
        let printIDs = options.has("print-ids")

        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: store, onDiagnostic: { printError("generate: \($0)") }))
        // What the store replayed from an earlier run is not this run's.
        let start = dispatcher.counters
        let load = LoadGenerator(plugins: [dispatcher])
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in stride(from: thread, to: count, by: threads) {
                let receipts = load.send(index)
                if printIDs, let receipt = receipts.first {
                    // One write(2) per line: the id is on its way out as soon as its send returned.
                    FileHandle.standardOutput.write(Data((receipt.eventID.uuidString + "\n").utf8))
                }
            }
        }
        let drained = await dispatcher.drain(timeout: TimeInterval(timeout))
        let end = dispatcher.counters
        let elapsed = Date().timeIntervalSince(started)
        await dispatcher.close()
        let summary = RunSummary(
            from: start, to: end,
            strandedReason: drained.timedOut ? "not in the store after \(timeout) s" : nil)
        printError("generate: \(summary.line) in \(String(format: "%.2f", elapsed)) s with \(threads) thread\(threads == 1 ? "" : "s"), \(ProcessCPU.now())")
        return summary.isComplete ? 0 : 1
    }
}

/// Sends a rotating mix of events across the three features, each with four userData fields.
struct LoadGenerator {
    private let cart: EventReporter<Cart>
    private let wishlist: EventReporter<WishlistAnalytics>
    private let onboarding: EventReporter<OnboardingAnalytics>

    init(plugins: [any EventReporterPlugin], processors: [any EventProcessor] = []) {
        onboarding = EventReporter(plugins: plugins, processors: processors, violationHandler: .silent)
        cart = onboarding.reporter(for: Cart.self)
        wishlist = onboarding.reporter(for: WishlistAnalytics.self)
    }

    /// An event like the ones the mix sends, for sizing.
    func sampleEvent() -> TrackedEvent {
        TrackedEvent(category: "Cart", name: "add", action: "select", userData: userData(for: 0))
    }

    /// The four userData fields of the `index`-th event of the mix.
    func userData(for index: Int) -> UserData {
        switch index % 3 {
        case 0: ["sku": "sku-\(index % 97)", "quantity": .int(index % 3 + 1), "price": 19.99, "gift": false]
        case 1: ["itemID": "sku-\(index % 89)", "position": .int(index % 10), "source": "home", "sale": true]
        default: ["method": "email", "attempt": .int(index % 4), "remember": true, "latencyMs": 120.5]
        }
    }

    /// Sends the `index`-th event of the mix and returns its receipts.
    @discardableResult
    func send(_ index: Int) -> [Receipt] { send(index, userData: userData(for: index)) }

    /// Sends the `index`-th event of the mix with data made beforehand (the bench times only this).
    @discardableResult
    func send(_ index: Int, userData: UserData) -> [Receipt] {
        switch index % 3 {
        case 0: cart.send(name: .add, action: .select, userData: userData)
        case 1: wishlist.send(name: .add, action: .tap, userData: userData)
        default: onboarding.send(name: .login, action: .submitted, userData: userData)
        }
    }
}
