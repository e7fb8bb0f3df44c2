import CZlib
import Foundation

/// Compresses a request body into one gzip member (RFC 1952) with the system zlib.
enum GzipEncoder {
    /// Level 3, measured on hydrated Segment batches of 100 events (931 B an event plain):
    /// 51 B an event in 1.6 µs, where zlib's default level 6 gives 41 B in 3.4 µs and level 1
    /// 56 B in the same 1.6 µs. Half the CPU for a quarter more bytes, far under 100 B.
    static let level: Int32 = 3

    /// `windowBits` 15 (a 32 KiB window) plus 16, which asks zlib for the gzip wrapper.
    private static let gzipWindowBits: Int32 = 15 + 16

    /// The gzip encoding of `body`; nil when zlib fails (out of memory) or the body is larger
    /// than zlib's 32-bit counts. An empty body gives a valid gzip member of no bytes.
    static func encode(_ body: Data) -> Data? {
        guard body.count < Int(UInt32.max) / 2 else { return nil }
        var stream = z_stream()
        let initialized = deflateInit2_(&stream, level, Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY,
                                        zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // The bound holds every input, so one call with Z_FINISH completes the member.
        let bound = Int(deflateBound(&stream, uLong(body.count)))
        var output = Data(count: bound)
        let status: Int32 = body.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                // zlib reads through a non-const pointer but never writes the input.
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.count = Int(stream.total_out)
        return output
    }
}
