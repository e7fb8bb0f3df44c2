import CZlib
import Foundation

/// Decodes gzip request bodies with the system zlib, for collectors in tests and the bench
/// (the library itself only compresses).
public enum GzipDecoder {
    /// The decoded bytes of one gzip member; nil when `data` is not gzip, is cut short, or
    /// would decode to more than `limit` bytes (so a hostile body cannot exhaust memory).
    public static func decode(_ data: Data, limit: Int = 64 << 20) -> Data? {
        var stream = z_stream()
        // 15 + 16: a 32 KiB window, gzip wrapper only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let finished: Bool = data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBytes { out -> (Int32, Int) in
                    stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return true }
                guard status == Z_OK, output.count <= limit, produced > 0 || stream.avail_in > 0 else { return false }
            }
        }
        return finished && output.count <= limit ? output : nil
    }
}
