#if os(Linux)
import CCurl
import Foundation

/// One request's state while libcurl runs it: the response as it arrives, bounded, and the
/// flag that stops it. libcurl's callbacks reach it through their context pointer.
final class CurlTransfer: @unchecked Sendable {
    // Safe: `status`, `headers`, `body`, `headerBytes`, `bodyTruncated` and `headersTooLarge` are
    // only touched by the thread running the transfer (libcurl calls back on it); `stopped` is
    // only touched while holding `lock`.
    private let lock = NSLock()
    private var stopped = false
    /// The most body bytes kept.
    let maxBodyBytes: Int
    /// The most header bytes read before the response counts as invalid.
    let maxHeaderBytes: Int
    private(set) var headers: [String: String] = [:]
    private(set) var body = Data()
    private(set) var bodyTruncated = false
    private(set) var headersTooLarge = false
    private var headerBytes = 0

    init(maxBodyBytes: Int, maxHeaderBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// Asks the transfer to stop: libcurl's next progress call (within about a second, even
    /// while nothing moves) aborts it.
    func stop() { lock.withLock { stopped = true } }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { lock.withLock { stopped } }

    /// Keeps body bytes up to the bound; past it, keeps what fits and refuses the rest, which
    /// aborts the transfer.
    func receiveBody(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        let room = maxBodyBytes - body.count
        guard let bytes, count > 0 else { return count }
        if count <= room {
            body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
            return count
        }
        if room > 0 { body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: room) }
        bodyTruncated = true
        return 0
    }

    /// Reads one header line; a status line (`HTTP/…`) starts a new response's headers (after
    /// `100 Continue`). Past the header bound the transfer is aborted.
    func receiveHeader(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        headerBytes += count
        guard headerBytes <= maxHeaderBytes else {
            headersTooLarge = true
            return 0
        }
        guard let bytes, count > 0 else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return count
        }
        guard let colon = line.firstIndex(of: ":") else { return count }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { headers[name] = value }
        return count
    }

    /// The C callbacks, which find the transfer through their context pointer.
    static let onBody: ccurl_data_function = { bytes, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveBody(bytes, count: size * count)
    }

    static let onHeader: ccurl_data_function = { bytes, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveHeader(bytes, count: size * count)
    }

    static let onProgress: ccurl_progress_function = { context, _, _, _, _ in
        guard let context else { return 1 }
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isStopped ? 1 : 0
    }
}
#endif
