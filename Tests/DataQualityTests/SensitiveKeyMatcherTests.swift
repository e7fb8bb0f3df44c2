import Testing
@testable import DataQuality

@Suite("Sensitive keys match in any case")
struct SensitiveKeyMatcherTests {
    private let matcher = SensitiveKeyMatcher(["email", "Phone", "passwört"])

    @Test(arguments: ["email", "EMAIL", "eMail", "phone", "PHONE", "passwört", "PASSWÖRT"])
    func sensitiveKeysMatch(key: String) { #expect(matcher.matches(key)) }

    @Test(arguments: ["emai", "emails", "e-mail", "price", "phony", "", "passwort", "émail"])
    func otherKeysDoNotMatch(key: String) { #expect(!matcher.matches(key)) }

    @Test func aNonASCIILetterThatLowercasesToASCIIMatches() {
        // U+212A KELVIN SIGN lowercases to "k".
        #expect(SensitiveKeyMatcher(["kid"]).matches("\u{212A}id"))
    }
}
