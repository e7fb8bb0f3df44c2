import Foundation

/// A file named on the command line that cannot be read: missing, a directory, or unreadable.
/// The work fails (exit 1) with a message naming the path.
enum InputFileError: Error, CustomStringConvertible {
    /// Nothing exists at the path.
    case missing(String)
    /// The path is a directory.
    case directory(String)
    /// The file exists but this process may not read it.
    case unreadable(String)

    /// Checks that `path` is a readable regular file.
    /// - Throws: ``InputFileError`` saying what is wrong.
    static func check(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw missing(path) }
        if isDirectory.boolValue { throw directory(path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw unreadable(path) }
    }

    /// `no such file: PATH`, `PATH is a directory, not a file`, or `cannot read PATH: …`.
    var description: String {
        switch self {
        case .missing(let path): "no such file: \(path)"
        case .directory(let path): "\(path) is a directory, not a file"
        case .unreadable(let path): "cannot read \(path): no read permission"
        }
    }
}
