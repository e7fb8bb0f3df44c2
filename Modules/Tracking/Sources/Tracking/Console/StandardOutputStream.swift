import Foundation

/// Standard output as a `TextOutputStream`, flushed per write.
public struct StandardOutputStream: TextOutputStream, Sendable {
    /// Creates the stream.
    public init() {}
    /// Writes `string` to standard output.
    public mutating func write(_ string: String) {
        FileHandle.standardOutput.write(Data(string.utf8))
    }
}
