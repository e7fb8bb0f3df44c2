import Foundation
import Tracking
import TrackingTestKit

// Sends the profile feature's events through the console, a recorder and a custom plugin,
// then checks that each plugin saw exactly what was sent. Exits 1 on any difference.

let recorder = RecordingPlugin()
let vendor = VendorLogPlugin()
let reporter = EventReporter<Profile>(plugins: [ConsoleReporter(), recorder, vendor])

let sent: [(name: Profile.Name, action: Profile.Action, userData: UserData)] = [
    (.settings, .opened, [:]),
    (.avatar, .changed, ["source": "camera", "sizeKB": 412, "cropped": true]),
    (.settings, .changed, ["theme": "dark", "notifications": ["email", "push"]]),
]
var receipts: [Receipt] = []
for event in sent {
    receipts += reporter.send(name: event.name, action: event.action, userData: event.userData)
}

var problems: [String] = []
do {
    try recorder.expect(sent.map { ExpectedEvent(Profile.self, $0.name, $0.action, $0.userData) })
} catch {
    problems.append("\(error)")
}
if recorder.events.contains(where: { $0.category != "Profile" || !$0.flags.isEmpty }) {
    problems.append("unexpected category or flags: \(recorder.events)")
}
if vendor.lines.count != sent.count || vendor.lines.last != #"track event=Profile.settings.changed properties={"notifications":["email","push"],"theme":"dark"}"# {
    problems.append("vendor plugin saw: \(vendor.lines)")
}
let expectedPlugins = Array(repeating: ["console", "recording", "vendor-log"], count: sent.count).flatMap { $0 }
if receipts.map(\.plugin) != expectedPlugins || Set(receipts.map(\.eventID)).count != sent.count {
    problems.append("receipts: \(receipts.map(\.plugin))")
}

if problems.isEmpty {
    print("ExternalFeature: OK, \(sent.count) events reached console, recorder and vendor-log")
} else {
    FileHandle.standardError.write(Data(("ExternalFeature: FAILED\n" + problems.joined(separator: "\n") + "\n").utf8))
    exit(1)
}
