// Stub of Darwin for .ci/apple-sdk/typecheck.sh: Glibc, plus the Darwin-only C names the SDK's
// Apple/ files call, as Swift imports them from Apple's headers (bodies are never run).
// (Another change adds more Darwin-only names here; on merge keep the union of both lists.)
// - sysctl.h: "int sysctlbyname(const char *, void *, size_t *, void *, size_t)", imported
//   without nullability as below (size_t is Int, void * is UnsafeMutableRawPointer)
//   https://developer.apple.com/documentation/kernel/1387446-sysctlbyname
@_exported import Glibc

public func sysctlbyname(
    _ name: UnsafePointer<CChar>!, _ oldp: UnsafeMutableRawPointer!, _ oldlenp: UnsafeMutablePointer<Int>!,
    _ newp: UnsafeMutableRawPointer!, _ newlen: Int
) -> Int32 { -1 }
