import Foundation
import Tracking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends events to a newline-delimited JSON file, one object per event per line, for offline
/// use and the demo.
///
/// Each line is `{"id","timestamp","category","name","action","userData","context","flags"}`
/// (`id` a lowercase UUID, `timestamp` ISO-8601 UTC with milliseconds). A batch is written with
/// one `write`, then `fsync`ed before it counts as delivered. The file is created with mode
/// 0600, and its folder (mode 0700) if missing.
public struct NDJSONFileDestination: Destination, CustomStringConvertible {
    /// The destination's name in reports.
    public let name: String
    /// The file appended to.
    public let fileURL: URL
    /// The claim budget for one batch. Defaults to 4 MB.
    public let maxBatchBytes: Int

    /// Creates a destination writing to `fileURL`.
    public init(fileURL: URL, name: String = "ndjson", maxBatchBytes: Int = 4_000_000) {
        self.fileURL = fileURL
        self.name = name
        self.maxBatchBytes = maxBatchBytes
    }

    /// Creates a destination from a file path or a `file://` URL string, refusing a `file://`
    /// URL that names a host other than `localhost`.
    /// - Throws: an error saying why, when the URL is malformed or names another host.
    public init(endpoint: String, name: String = "ndjson", maxBatchBytes: Int = 4_000_000) throws {
        self.init(fileURL: try EndpointURL.fileURL(endpoint), name: name, maxBatchBytes: maxBatchBytes)
    }

    /// Creates a destination from a file path or a `file://` URL string. A `file://` URL naming
    /// another host is not written to: each delivery fails with the reason (see
    /// ``init(endpoint:name:maxBatchBytes:)`` to be told at once).
    public init(path: String, name: String = "ndjson", maxBatchBytes: Int = 4_000_000) {
        let url = path.hasPrefix("file://") ? (URL(string: path) ?? URL(fileURLWithPath: path)) : URL(fileURLWithPath: path)
        self.init(fileURL: url, name: name, maxBatchBytes: maxBatchBytes)
    }

    /// `NDJSONFileDestination(name, path)`.
    public var description: String { "NDJSONFileDestination(\(name), \(fileURL.path))" }

    /// Appends the batch and syncs the file. A file-system failure is a retry outcome.
    public func deliver(_ batch: [StoredEvent], sentAt: Date) async -> DeliveryResult {
        guard !batch.isEmpty else { return .delivered }
        // A host the URL names is not this machine: refuse rather than write to the bare path.
        if fileURL.isFileURL, let host = fileURL.host, !host.isEmpty, host.lowercased() != "localhost" {
            let reason = EndpointError.remoteFileHost(fileURL.absoluteString, host: host).description
            return DeliveryResult(.retry(reason: reason, retryAfter: nil))
        }
        let bytes = encode(batch)
        do {
            try append(bytes)
            return .delivered
        } catch {
            return DeliveryResult(.retry(reason: error.description, retryAfter: nil))
        }
    }

    /// The lines for `batch`, each ending in a newline.
    public func encode(_ batch: [StoredEvent]) -> [UInt8] {
        var writer = JSONWriter(capacity: batch.reduce(0) { $0 + $1.event.approximateSize + 128 })
        for stored in batch {
            let event = stored.event
            writer.raw("{\"id\":")
            writer.uuid(event.id)
            writer.raw(",\"timestamp\":")
            writer.timestamp(milliseconds: event.timestampMilliseconds)
            writer.raw(",\"category\":")
            writer.string(event.category)
            writer.raw(",\"name\":")
            writer.string(event.name)
            writer.raw(",\"action\":")
            writer.string(event.action)
            writer.raw(",\"userData\":")
            writer.raw(bytes: event.userDataBlob)
            writer.raw(",\"context\":")
            writer.raw(bytes: event.contextBlob)
            writer.raw(",\"flags\":")
            writer.raw(bytes: event.flagsBlob)
            writer.raw("}\n")
        }
        return writer.bytes
    }

    private func append(_ bytes: [UInt8]) throws(NDJSONFileError) {
        let folder = fileURL.deletingLastPathComponent()
        do {
            // Each missing folder 0700 from the start, whatever the umask.
            try FileProtection.createDirectory(atPath: folder.path)
        } catch {
            var code: Int32 = 0
            if case .cannotOpen(_, _, let number) = error { code = number ?? 0 }
            throw NDJSONFileError(operation: "create folder", path: folder.path, code: code, detail: "\(error)")
        }
        // Never through a symbolic link, and only a regular file.
        let descriptor: Int32
        switch RegularFile.openFile(fileURL.path, flags: O_WRONLY | O_APPEND | O_CREAT) {
        case .success(let opened): descriptor = opened
        case .failure(let failure):
            throw NDJSONFileError(operation: "open", path: fileURL.path, code: failure.errno, detail: failure.reason)
        }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if result == 0 { throw NDJSONFileError(operation: "write", path: fileURL.path, code: EIO) }
            if result < 0 {
                if errno == EINTR { continue }
                throw NDJSONFileError(operation: "write", path: fileURL.path, code: errno)
            }
            written += result
        }
        guard DurableSync.flush(descriptor) == 0 else { throw NDJSONFileError(operation: "fsync", path: fileURL.path, code: errno) }
    }
}
