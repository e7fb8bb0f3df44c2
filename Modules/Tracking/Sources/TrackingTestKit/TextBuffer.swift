import Foundation

/// A thread-safe text stream a test can hand to ``Tracking/ConsoleReporter`` and read back.
public final class TextBuffer: TextOutputStream, @unchecked Sendable {
    // Safe: `storage` is only touched while holding `lock`.
    private let lock = NSLock()
    private var storage = ""

    /// Creates an empty buffer.
    public init() {}

    /// Appends `string`.
    public func write(_ string: String) { lock.withLock { storage += string } }

    /// Everything written so far.
    public var text: String { lock.withLock { storage } }

    /// The lines written so far.
    public var lines: [String] { text.split(separator: "\n").map(String.init) }
}
