import Foundation
import Testing
import TestSupport
import Tracking
import TrackingTestKit

/// A feature that declares a reserved category by hand.
private enum Sneaky: EventType {
    enum Name: String, Sendable { case shown }
    enum Action: String, Sendable { case view }
    static let category = "$screen"
}

/// Collects what a violation handler hears, across threads.
private final class HeardFlags: Sendable {
    private let flags = LockedValue<[EventFlag]>([])
    var all: [EventFlag] { flags.withLock { $0 } }
    func append(_ flag: EventFlag) { flags.withLock { $0.append(flag) } }
}

@Suite("Identify and screen calls in the core")
struct EventKindTests {
    @Test("screen(name:properties:) sends a $screen/name/view event with the properties, kind .screen")
    func screenEvent() throws {
        let recorder = RecordingPlugin()
        let receipts = EventReporter<Cart>(plugins: [recorder]).screen(name: "Basket", properties: ["step": 2, "empty": false])
        let event = try #require(recorder.events.first)
        #expect(recorder.events.count == 1)
        #expect(event.category == "$screen")
        #expect(event.name == "Basket")
        #expect(event.action == "view")
        #expect(event.userData == ["step": 2, "empty": false])
        #expect(event.flags.isEmpty)
        #expect(event.kind == .screen)
        #expect(receipts.map(\.eventID) == [event.id])
        #expect(recorder.events(of: Cart.self).isEmpty)
    }

    @Test("identify(traits:) sends a $identify/identify/identify event with the traits, kind .identify")
    func identifyEvent() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Search>(plugins: [recorder])
        reporter.identify(traits: ["plan": "premium", "logins": 5])
        reporter.identify()
        #expect(recorder.events.count == 2)
        let event = try #require(recorder.events.first)
        #expect(event.category == "$identify")
        #expect(event.name == "identify")
        #expect(event.action == "identify")
        #expect(event.userData == ["plan": "premium", "logins": 5])
        #expect(event.kind == .identify)
        #expect(recorder.events.last?.userData == [:])
        #expect(recorder.events.last?.kind == .identify)
    }

    @Test("both calls run through the processors, in order, and a processor can stop them")
    func processorsRun() {
        let recorder = RecordingPlugin()
        let stamp = ClosureProcessor { event in
            var event = event
            event.context["userId"] = "user-42"
            return event
        }
        let dropScreens = ClosureProcessor { $0.kind == .screen && $0.name == "Secret" ? nil : $0 }
        let reporter = EventReporter<Cart>(plugins: [recorder], processors: [stamp, dropScreens])
        #expect(reporter.screen(name: "Secret").isEmpty)
        reporter.screen(name: "Home")
        reporter.identify(traits: ["plan": "pro"])
        #expect(recorder.events.map(\.name) == ["Home", "identify"])
        #expect(recorder.events.allSatisfy { $0.context["userId"] == "user-42" })
    }

    @Test("properties and traits nested too deep are cut and flagged, as for send")
    func depthTruncation() throws {
        let recorder = RecordingPlugin()
        let reporter = EventReporter<Cart>(plugins: [recorder])
        reporter.screen(name: "Deep", properties: ["deep": DeepValue.make(.object, depth: 100)])
        reporter.identify(traits: ["deep": DeepValue.make(.array, depth: 100), "ratio": .double(.nan)])
        #expect(recorder.events.count == 2)
        for event in recorder.events {
            #expect(event.hasFlag(DeepValue.flagCode))
            let chain = DeepValue.chain(event.userData["deep"])
            #expect(chain.containers < DeepValue.limit)
            #expect(chain.bottom == .string(DeepValue.placeholder))
        }
        #expect(recorder.events[1].hasFlag(EventFlag.nonFiniteNumber.code))
    }

    @Test("an empty or blank screen name is still sent, flagged empty_name and reported")
    func emptyScreenName() {
        let recorder = RecordingPlugin()
        let heard = HeardFlags()
        let reporter = EventReporter<Cart>(plugins: [recorder], violationHandler: ViolationHandler { _, flag in heard.append(flag) })
        reporter.screen(name: "")
        reporter.screen(name: "  \n")
        reporter.screen(name: "Home")
        #expect(recorder.events.map(\.name) == ["", "  \n", "Home"])
        #expect(recorder.events.map { $0.flags } == [[.emptyScreenName], [.emptyScreenName], []])
        #expect(recorder.events.allSatisfy { $0.kind == .screen })
        #expect(heard.all == [.emptyScreenName, .emptyScreenName])
        #expect(EventFlag.emptyScreenName.description == "empty_name(screen)")
    }

    @Test("a feature's events are always .track; a feature declaring a reserved category loses the $ and is flagged")
    func featureCategoryCannotProduceAKind() throws {
        let recorder = RecordingPlugin()
        let heard = HeardFlags()
        let handler = ViolationHandler { _, flag in heard.append(flag) }
        EventReporter<Cart>(plugins: [recorder]).send(name: .checkout, action: .pay)
        EventReporter<Search>(plugins: [recorder]).send(name: .query, action: .submitted)
        let sneaky = EventReporter<Sneaky>(plugins: [recorder], violationHandler: handler)
        sneaky.send(name: .shown, action: .view)
        sneaky.send(contentsOf: [(name: .shown, action: .view, userData: [:])])
        #expect(recorder.events.map(\.kind) == [.track, .track, .track, .track])
        #expect(recorder.events.map(\.category) == ["Cart", "Search", "screen", "screen"])
        #expect(recorder.events[2].flags == [.reservedCategory("$screen")])
        #expect(recorder.events[2].flags.first?.description == "reserved_category($screen)")
        #expect(heard.all == [.reservedCategory("$screen"), .reservedCategory("$screen")])
    }

    @Test("the kind comes from the exact reserved category only")
    func kindFromCategory() {
        #expect(EventKind.allCases == [.track, .identify, .screen])
        #expect(EventKind.allCases.map(\.category) == [nil, "$identify", "$screen"])
        for kind in EventKind.allCases {
            #expect(EventKind(category: kind.category ?? "Cart") == kind)
        }
        for category in ["screen", "Screen", "identify", "$Screen", "$screen ", " $identify", "$", "", "Cart"] {
            #expect(EventKind(category: category) == .track, "\(category)")
        }
        #expect(EventKind.isReserved("$anything"))
        #expect(!EventKind.isReserved("Cart"))
        #expect(TrackedEvent(category: "$identify", name: "identify", action: "identify").kind == .identify)
        #expect(EventKind.screen.rawValue == "screen")
    }

    @Test("the library's name is defined once")
    func library() {
        #expect(TrackingLibrary.name == "swift-tracking")
    }
}
