import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain GET through URLSession, as a browser or script would make it (the `Host` header is
/// the URL's), for tests of the servers the library or the demo run on 127.0.0.1.
public enum LoopbackGet {
    /// GETs `url`, uncached, within 10 s.
    /// - Returns: the status and the body as text.
    public static func text(_ url: URL) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
