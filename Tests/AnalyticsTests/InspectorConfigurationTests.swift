import Analytics
import Foundation
import Testing
import Tracking

/// The `"inspector"` key: off unless given, a port or any free one, unknown keys refused.
@Suite("Inspector configuration")
struct InspectorConfigurationTests {
    private func decode(_ json: String) throws -> AnalyticsConfiguration {
        try AnalyticsConfiguration(json: Data(json.utf8))
    }

    @Test("absent: off; {}: any free port; a port: that port; it round-trips through JSON")
    func decodes() throws {
        #expect(try decode(#"{"store": "x.sqlite"}"#).inspector == nil)
        #expect(try decode(#"{"store": "x.sqlite", "inspector": {}}"#).inspector == .init(port: 0))
        let configured = try decode(#"{"store": "x.sqlite", "inspector": {"port": 8765}}"#)
        #expect(configured.inspector?.port == 8765)
        let again = try decode(String(decoding: try JSONEncoder().encode(configured), as: UTF8.self))
        #expect(again.inspector == configured.inspector)
    }

    @Test("an unknown key inside inspector is an error naming it")
    func unknownKey() {
        #expect(throws: (any Error).self) { try decode(#"{"store": "x.sqlite", "inspector": {"prot": 1}}"#) }
        do {
            _ = try decode(#"{"store": "x.sqlite", "inspector": {"prot": 1}}"#)
        } catch {
            #expect("\(error)".contains("prot"), "\(error)")
        }
    }

    @Test("turning the inspector on does not change the configuration hash the events carry")
    func hashUnchanged() throws {
        let off = try decode(#"{"store": "x.sqlite"}"#)
        let on = try decode(#"{"store": "x.sqlite", "inspector": {"port": 8765}}"#)
        #expect(off.hash == on.hash)
    }
}
