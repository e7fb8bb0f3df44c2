import Foundation

/// Serialises writes to one stream from many threads.
final class ConsoleOutput: @unchecked Sendable {
    // Safe: `stream` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stream: any TextOutputStream

    init(stream: some TextOutputStream) { self.stream = stream }

    func write(_ text: String) { lock.withLock { stream.write(text) } }
}
