#if os(Linux)
import CCurl
import Foundation
import Tracking

/// One request's state while libcurl runs it: the response as it arrives, bounded, and the
/// flag that stops it. libcurl's callbacks reach it through their context pointer, on the
/// thread running the transfer; ``stop()`` comes from any thread.
final class CurlTransfer: Sendable {
    /// The response as it arrives.
    struct Response {
        var headers: [String: String] = [:]
        var body = Data()
        var bodyTruncated = false
        var headersTooLarge = false
        var headerBytes = 0
    }

    private let stopped = LockedValue(false)
    private let received = LockedValue(Response())
    /// The most body bytes kept.
    let maxBodyBytes: Int
    /// The most header bytes read before the response counts as invalid.
    let maxHeaderBytes: Int

    init(maxBodyBytes: Int, maxHeaderBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// Asks the transfer to stop: libcurl's next progress call (within about a second, even
    /// while nothing moves) aborts it.
    func stop() { stopped.withLock { $0 = true } }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.withLock { $0 } }

    /// What was received so far.
    var response: Response { received.withLock { $0 } }

    /// Keeps body bytes up to the bound; past it, keeps what fits and refuses the rest, which
    /// aborts the transfer.
    func receiveBody(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard let bytes, count > 0 else { return count }
        let start = UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self)
        let maxBodyBytes = maxBodyBytes
        return received.withLock { response in
            let room = maxBodyBytes - response.body.count
            if count <= room {
                response.body.append(start, count: count)
                return count
            }
            if room > 0 { response.body.append(start, count: room) }
            response.bodyTruncated = true
            return 0
        }
    }

    /// Reads one header line; a status line (`HTTP/…`) starts a new response's headers (after
    /// `100 Continue`). Past the header bound the transfer is aborted.
    func receiveHeader(_ bytes: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        let maxHeaderBytes = maxHeaderBytes
        let line: String? = bytes.flatMap { bytes in
            count > 0 ? String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) : nil
        }
        return received.withLock { response in
            response.headerBytes += count
            guard response.headerBytes <= maxHeaderBytes else {
                response.headersTooLarge = true
                return 0
            }
            guard let line else { return count }
            if line.hasPrefix("HTTP/") {
                response.headers = [:]
                return count
            }
            guard let colon = line.firstIndex(of: ":") else { return count }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { response.headers[name] = value }
            return count
        }
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
