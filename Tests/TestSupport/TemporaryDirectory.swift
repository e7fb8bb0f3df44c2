import Foundation

/// A fresh folder under the system temporary directory, removed by ``remove()`` or when the
/// value is released. The one temporary-folder helper of the test suite.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Creates `<tmp>/<prefix>-<uuid>/`.
    public init(prefix: String = "tracking-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// A path inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` as UTF-8 to the file `name` inside the folder.
    /// - Returns: the file.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try Data(text.utf8).write(to: target)
        return target
    }

    /// Deletes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }

    deinit { remove() }
}
