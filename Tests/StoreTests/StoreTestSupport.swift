@testable import Dispatcher
import Foundation
import TestSupport
import Tracking

/// An encoded event with four short userData fields and an empty context.
func sampleEvent(_ index: Int = 0, category: String = "Basket", name: String = "checkout", action: String = "pay",
                 at date: Date = Date()) -> EncodedEvent {
    EncodedEvent(TrackedEvent(
        id: EventID.make(at: date), timestamp: date, category: category, name: name, action: action,
        userData: ["item": .string("sku-\(index)"), "price": 12.5, "quantity": .int(index % 7), "gift": false]
    ))
}

/// Permission bits of a file.
func permissions(_ path: String) -> Int? {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
}

/// Whether this process can write into a folder whose mode forbids it (true for root).
func writesIgnorePermissions(in folder: TemporaryDirectory) -> Bool {
    let locked = folder.file("locked").path
    try? FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
    _ = chmod(locked, 0o500)
    defer { _ = chmod(locked, 0o700) }
    return FileManager.default.createFile(atPath: locked + "/probe", contents: Data([1]))
}
