import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read, in words a person can act on: `no such file`,
/// `permission denied`, `is a directory`. Taken from the error's POSIX code (or the
/// underlying one, which Foundation gives on Linux and Apple platforms), then its Cocoa code,
/// then what is at the path; never Foundation's generic "The operation could not be completed".
package enum FileReadFailure {
    /// The reason reading `path` failed with `error`.
    package static func reason(for error: any Error, path: String) -> String {
        if let code = posixCode(of: error) { return describe(errno: code) }
        if let cocoa = error as? CocoaError {
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return describe(errno: ENOENT)
            case .fileReadNoPermission: return describe(errno: EACCES)
            default: break
            }
        }
        // No code says why: look at what is at the path (no `stat`, a required-reason API).
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return describe(errno: ENOENT) }
        if isDirectory.boolValue { return describe(errno: EISDIR) }
        return error.localizedDescription
    }

    /// The POSIX code of `error`, or of the error underneath it.
    private static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(truncatingIfNeeded: underlying.code)
        }
        return nil
    }

    /// Short words for the common codes, the system's text for the rest.
    private static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory"
        case ENOTDIR: return "a part of the path is not a directory"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
