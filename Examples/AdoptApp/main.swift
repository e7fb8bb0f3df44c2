import Analytics
import Basket
import Foundation
import Tracking

// Where events are stored, and where they go. Here an NDJSON file, so it runs anywhere; for
// Segment: .segment(endpoint: URL(string: "https://api.segment.io")!, writeKey: key)
var configuration = AnalyticsConfiguration(
    storePath: "analytics/events.sqlite",
    destination: .ndjson(file: URL(fileURLWithPath: "analytics/outbox.ndjson")))
configuration.appID = "shop"
configuration.consentCategories = ["Marketing"]

// Starts the journal, the store, the data-quality stages and delivery.
let analytics = try Analytics(configuration: configuration, plugins: [ConsoleReporter()])

// Each feature gets a typed reporter with everything in place.
let cart = analytics.reporter(for: Cart.self)
analytics.screen(name: "Basket", properties: ["items": 2])
cart.send(CartEvent.purchased(quantity: 2, payment: .visa))
analytics.identify(userID: "user-42", traits: ["plan": "pro"])

// Before the process ends: persist everything sent, deliver, close.
let drained = await analytics.drain(timeout: 10)
let counts = analytics.counters
print("persisted \(counts.persisted) of \(counts.sent), delivered \(counts.delivered)"
      + (drained.timedOut ? " (the drain timed out)" : ""))
await analytics.close()
