import Foundation
import Testing
import Tracking

/// `ConfigurationDecoder.rejectUnknownKeys`: a configuration type names its keys once, and a
/// field that is not one of them fails with its path, through public API alone.
struct ConfigurationDecoderUnknownKeysTests {
    struct Settings: Decodable, Equatable {
        enum CodingKeys: String, CodingKey, CaseIterable { case name, size }
        var name: String
        var size: Int?

        init(from decoder: any Decoder) throws {
            try ConfigurationDecoder.rejectUnknownKeys(CodingKeys.self, in: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            size = try container.decodeIfPresent(Int.self, forKey: .size)
        }
    }

    struct Outer: Decodable { var settings: Settings }

    @Test func knownKeysDecode() throws {
        let settings = try ConfigurationDecoder.decode(Settings.self, from: Data(#"{"name": "a", "size": 2}"#.utf8))
        #expect(settings == Settings(nameForTest: "a", size: 2))
    }

    @Test func anUnknownKeyFailsWithItsPathAndTheKnownKeys() {
        #expect {
            try ConfigurationDecoder.decode(Outer.self, from: Data(#"{"settings": {"name": "a", "sise": 2, "zz": 1}}"#.utf8))
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.field == "settings.sise" && error.reason.contains("unknown field (known: name, size)")
        }
    }
}

extension ConfigurationDecoderUnknownKeysTests.Settings {
    init(nameForTest name: String, size: Int?) {
        self.name = name
        self.size = size
    }
}
