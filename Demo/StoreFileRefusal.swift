import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a command refused its `--store`: printed as `demo: …`, exit status 1.
struct StoreFileRefusal: Error, CustomStringConvertible {
    /// The reason, naming the path.
    let description: String
    init(_ description: String) { self.description = description }
}
