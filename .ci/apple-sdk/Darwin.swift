// A stand-in for Apple's `Darwin` module on Linux, so that `Sources/*/Apple/*.swift` can be
// type-checked here: Glibc, plus the Darwin-only C names those files use, declared with the types
// Swift imports them with from the macOS/iOS SDK (`<sys/fcntl.h>`, `<sys/sysctl.h>`). Never linked into anything.
@_exported import Glibc

/// `struct fstore` of `<sys/fcntl.h>`, the argument of `F_PREALLOCATE`.
public struct fstore_t {
    /// IN: `F_ALLOCATECONTIG`, `F_ALLOCATEALL`.
    public var fst_flags: UInt32
    /// IN: `F_PEOFPOSMODE` or `F_VOLPOSMODE`.
    public var fst_posmode: Int32
    /// IN: start of the region.
    public var fst_offset: off_t
    /// IN: size of the region.
    public var fst_length: off_t
    /// OUT: bytes allocated.
    public var fst_bytesalloc: off_t

    /// All zero, as Swift's zero-initializer of an imported C struct.
    public init() {
        fst_flags = 0
        fst_posmode = 0
        fst_offset = 0
        fst_length = 0
        fst_bytesalloc = 0
    }

    /// The memberwise initializer Swift gives an imported C struct.
    public init(fst_flags: UInt32, fst_posmode: Int32, fst_offset: off_t, fst_length: off_t, fst_bytesalloc: off_t) {
        self.fst_flags = fst_flags
        self.fst_posmode = fst_posmode
        self.fst_offset = fst_offset
        self.fst_length = fst_length
        self.fst_bytesalloc = fst_bytesalloc
    }
}

/// `#define F_PREALLOCATE 42`: preallocate storage.
public var F_PREALLOCATE: Int32 { 42 }
/// `#define F_ALLOCATECONTIG 0x00000002`: allocate contiguous space.
public var F_ALLOCATECONTIG: Int32 { 0x0000_0002 }
/// `#define F_ALLOCATEALL 0x00000004`: allocate all requested space or none.
public var F_ALLOCATEALL: Int32 { 0x0000_0004 }
/// `#define F_PEOFPOSMODE 3`: the region starts at the physical end of file.
public var F_PEOFPOSMODE: Int32 { 3 }
/// `#define F_FULLFSYNC 51`: fsync, and ask the drive to flush its cache.
public var F_FULLFSYNC: Int32 { 51 }

/// `int sysctlbyname(const char *, void *, size_t *, void *, size_t)` of `<sys/sysctl.h>`,
/// imported without nullability (size_t is Int, void * is UnsafeMutableRawPointer).
/// https://developer.apple.com/documentation/kernel/1387446-sysctlbyname
public func sysctlbyname(
    _ name: UnsafePointer<CChar>!, _ oldp: UnsafeMutableRawPointer!, _ oldlenp: UnsafeMutablePointer<Int>!,
    _ newp: UnsafeMutableRawPointer!, _ newlen: Int
) -> Int32 { -1 }

/// `#define UF_IMMUTABLE 0x00000002` of `<sys/stat.h>`: the file may not be changed (owner's flag).
public var UF_IMMUTABLE: Int32 { 0x0000_0002 }
/// `#define UF_APPEND 0x00000004`: writes to the file may only append (owner's flag).
public var UF_APPEND: Int32 { 0x0000_0004 }
/// `#define SF_IMMUTABLE 0x00020000`: the file may not be changed (super-user's flag).
public var SF_IMMUTABLE: Int32 { 0x0002_0000 }
/// `#define SF_APPEND 0x00040000`: writes to the file may only append (super-user's flag).
public var SF_APPEND: Int32 { 0x0004_0000 }

extension stat {
    /// `__uint32_t st_flags` of Darwin's `struct stat`: the user-defined flags (`chflags`).
    public var st_flags: UInt32 {
        get { 0 }
        set {}
    }
}
