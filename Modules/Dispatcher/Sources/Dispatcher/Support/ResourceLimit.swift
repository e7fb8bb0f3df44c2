import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process limits behind the system errors that mean a resource ran out, named in messages,
/// and the probes that let the library refuse before it uses up a resource instead of failing
/// halfway (or letting the runtime crash on what is left).
enum ResourceLimit {
    /// How many descriptors opening a store needs free once its lock file is held: three it
    /// keeps (the database, its `-wal` and `-shm`), one at a time for the journal folder's
    /// listing or a new segment, and one left for the runtime (libdispatch's thread monitor
    /// opens `/proc` files on Linux, and stops the process when it cannot).
    static let storeDescriptors = 5
    /// The descriptors libdispatch opens for itself on Linux (an epoll, an eventfd, a timerfd),
    /// counted by a check made before its first use.
    static let runtimeDescriptors = 3

    /// Whether `code` says a resource ran out: `EMFILE`, `ENFILE` or `ENOMEM`.
    static func isExhaustion(_ code: Int32) -> Bool { code == EMFILE || code == ENFILE || code == ENOMEM }

    /// A sentence naming the limit behind `code` (`out of file descriptors (RLIMIT_NOFILE = 8)`),
    /// or `nil` when `code` is not one of ``isExhaustion(_:)``'s.
    static func exhaustion(_ code: Int32) -> String? {
        switch code {
        case EMFILE: "out of file descriptors (RLIMIT_NOFILE = \(current(.descriptors)))"
        case ENFILE: "out of file descriptors (the system's open-file table is full, ENFILE)"
        case ENOMEM: "out of address space (RLIMIT_AS = \(current(.addressSpace)), ENOMEM)"
        default: nil
        }
    }

    /// The limits named in messages.
    enum Kind {
        case descriptors, addressSpace
    }

    /// The soft limit of `kind`, as text: a number, or `unlimited`.
    static func current(_ kind: Kind) -> String {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(kind == .descriptors ? RLIMIT_NOFILE.rawValue : RLIMIT_AS.rawValue)
        #else
        let resource = kind == .descriptors ? RLIMIT_NOFILE : RLIMIT_AS
        #endif
        guard getrlimit(resource, &limit) == 0 else { return "unknown" }
        // RLIM_INFINITY is all ones on Linux, 2^63 - 1 on Darwin.
        return limit.rlim_cur >= rlim_t(1) << 62 ? "unlimited" : String(limit.rlim_cur)
    }

    /// Whether `count` more descriptors can be opened now: `/dev/null` is opened `count` times,
    /// then every one closed.
    static func descriptorsAvailable(_ count: Int) -> Bool {
        var taken: [Int32] = []
        taken.reserveCapacity(count)
        defer { for descriptor in taken { close(descriptor) } }
        for _ in 0..<count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            taken.append(descriptor)
        }
        return true
    }

    /// Throws ``StoreError/cannotOpen(path:reason:errno:)`` naming the limit when fewer than
    /// ``storeDescriptors`` descriptors are free, so a store is never opened halfway and the last
    /// descriptors stay for the runtime.
    static func requireStoreDescriptors(path: String) throws(StoreError) {
        guard !descriptorsAvailable(storeDescriptors) else { return }
        throw .cannotOpen(path: path, reason: (exhaustion(EMFILE) ?? "out of file descriptors")
                          + ": opening a store needs \(storeDescriptors) free", errno: EMFILE)
    }

    /// Whether `bytes` can be allocated now (a probe: allocated and freed at once). Swift traps
    /// when an allocation fails, so code that would grow a buffer past what is left asks first.
    static func canAllocate(_ bytes: Int) -> Bool {
        guard let probe = malloc(max(1, bytes)) else { return false }
        free(probe)
        return true
    }
}

extension ResourceLimit {
    /// What ``Dispatcher/resourceShortage()`` reports: a thread cannot be started, or fewer than
    /// ``storeDescriptors``, the lock file's and ``runtimeDescriptors`` descriptors are free.
    static func shortage() -> String? {
        if !canReserve(addressSpaceHeadroom) {
            return (exhaustion(ENOMEM) ?? "out of address space")
                + ": less than \(addressSpaceHeadroom >> 20) MiB left for the runtime's threads, the journal and SQLite"
        }
        if let code = threadCreationFailure() {
            let limit = code == EAGAIN || code == ENOMEM ? exhaustion(ENOMEM) ?? "" : FileProtection.describe(code)
            return "\(limit): a thread cannot be started (pthread_create: errno \(code))"
        }
        let needed = storeDescriptors + 1 + runtimeDescriptors // and the store's lock file
        if !descriptorsAvailable(needed) {
            return (exhaustion(EMFILE) ?? "out of file descriptors") + ": a store and the runtime need \(needed) free"
        }
        return nil
    }

    /// The address space a process needs left, beyond what it has mapped when it starts, for the
    /// runtime's worker threads (8 MiB of stack each by default), malloc's per-thread arenas,
    /// a journal segment and SQLite's cache. Measured: the demo crashed or hung with about 35 MiB
    /// left (RLIMIT_AS = 140 MB), and ran with 96 MiB left.
    static let addressSpaceHeadroom = 96 << 20

    /// Whether `bytes` of address space can be reserved now (mapped with no access, then unmapped).
    static func canReserve(_ bytes: Int) -> Bool {
        #if os(Linux)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        #endif
        let address = mmap(nil, bytes, PROT_NONE, flags, -1, 0)
        guard let address, address != MAP_FAILED else { return false }
        munmap(address, bytes)
        return true
    }

    /// The error of creating (and joining) a thread with default attributes, or `nil` when it works.
    static func threadCreationFailure() -> Int32? {
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let code = pthread_create(&thread, nil, { _ in nil }, nil)
        guard code == 0 else { return code }
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        if let thread { pthread_join(thread, nil) }
        #endif
        return nil
    }
}
