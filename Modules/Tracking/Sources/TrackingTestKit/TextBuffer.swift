import Foundation
import Tracking

/// A thread-safe text stream a test can hand to `ConsoleReporter` and read back.
public final class TextBuffer: TextOutputStream, Sendable {
    private let storage = LockedValue("")

    /// Creates an empty buffer.
    public init() {}

    /// Appends `string`.
    public func write(_ string: String) { storage.withLock { $0 += string } }

    /// Everything written so far.
    public var text: String { storage.withLock { $0 } }

    /// The lines written so far.
    public var lines: [String] { text.split(separator: "\n").map(String.init) }
}
