import DataQuality
import Foundation
import Testing
import Tracking

/// `QualityConfiguration.hash(ofTree:)`: the hash of a value written out as a tree, equal to
/// `hash(of:)` of the value the tree mirrors.
@Suite("Configuration hash of a tree")
struct ConfigurationHashTreeTests {
    struct Nested: Encodable {
        var keys = ["email", "a \"quoted\" \\ key/with/slashes"]
        var on = true
    }

    struct Settings: Encodable {
        var name = "shop-ios é 🚀"
        var count = 100
        var ratio = 0.25
        var interval = 30.0
        var optional: String?
        var nested = Nested()
        var endpoint = URL(string: "https://collector.example.com/path?x=1")
    }

    /// The tree `Settings` encodes to: whole doubles as `.int`, nil left out, a URL as its text.
    static func tree(of settings: Settings) -> UserDataValue {
        var members: [String: UserDataValue] = [
            "name": .string(settings.name), "count": .int(settings.count), "ratio": .double(settings.ratio),
            "interval": .int(Int(settings.interval)),
            "nested": .object(["keys": .array(settings.nested.keys.map(UserDataValue.string)), "on": .bool(settings.nested.on)]),
        ]
        if let optional = settings.optional { members["optional"] = .string(optional) }
        if let endpoint = settings.endpoint { members["endpoint"] = .string(endpoint.absoluteString) }
        return .object(members)
    }

    @Test("a tree that mirrors a value hashes as the value does; any change of the tree changes it")
    func treeMatchesTheEncoder() {
        var settings = Settings()
        #expect(QualityConfiguration.hash(ofTree: Self.tree(of: settings)) == QualityConfiguration.hash(of: settings))
        settings.optional = "set"
        settings.ratio = 1e-3
        #expect(QualityConfiguration.hash(ofTree: Self.tree(of: settings)) == QualityConfiguration.hash(of: settings))
        let hash = QualityConfiguration.hash(ofTree: Self.tree(of: settings))
        #expect(hash.count == 12 && hash.allSatisfy(\.isHexDigit))
        settings.nested.on = false
        #expect(QualityConfiguration.hash(ofTree: Self.tree(of: settings)) != hash)
        // A double written as a double, not a whole number, is another text: another hash.
        #expect(QualityConfiguration.hash(ofTree: .object(["interval": .double(30)]))
                != QualityConfiguration.hash(ofTree: .object(["interval": .int(30)])))
    }
}
