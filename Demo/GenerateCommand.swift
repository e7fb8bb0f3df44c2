import Basket
import Dispatcher
import Foundation
import Onboarding
import Tracking
import Wishlist

/// `demo generate --count N --store PATH [--print-ids]`: load through a real Dispatcher, no delivery.
enum GenerateCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        let options = try CommandLineOptions(arguments, valueOptions: ["count", "store"], flagOptions: ["print-ids"])
        let count = try options.int("count", default: 1_000, in: 0...100_000_000)
        guard let store = options.value("store") else { throw UsageError("generate needs --store PATH") }
        let printIDs = options.has("print-ids")

        // A load generator must not evict what it makes: the queue bounds are lifted.
        let dispatcher = try Dispatcher(configuration: DispatcherConfiguration(
            storePath: store, batch: BatchConfig(maxQueueSize: Int.max / 2, maxQueueBytes: Int.max / 2)))
        let load = LoadGenerator(plugins: [dispatcher])
        let started = Date()
        for index in 0..<count {
            let receipts = load.send(index)
            if printIDs, let receipt = receipts.first {
                // One write(2) per line: the id is on its way out as soon as its send returned.
                FileHandle.standardOutput.write(Data((receipt.eventID.uuidString + "\n").utf8))
            }
        }
        let persisted = await dispatcher.drain(timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        await dispatcher.close()
        printError("generate: sent \(count) events in \(String(format: "%.2f", elapsed)) s; \(persisted.persisted ? "all persisted" : "NOT all persisted")")
        return persisted.persisted ? 0 : 1
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
