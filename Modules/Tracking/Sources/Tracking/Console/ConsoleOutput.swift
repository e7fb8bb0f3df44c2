import Foundation

/// Serialises writes to one stream from many threads.
// Unchecked: `stream` is the adopter's `TextOutputStream`, which need not be `Sendable`; every
// write to it goes through the box's lock.
final class ConsoleOutput: @unchecked Sendable {
    private let stream: LockedValue<any TextOutputStream>

    init(stream: some TextOutputStream) { self.stream = LockedValue(stream) }

    func write(_ text: String) { stream.withLock { $0.write(text) } }
}
