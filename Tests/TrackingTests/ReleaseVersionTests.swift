import Foundation
import Testing
import Tracking

/// The released version, `TrackingLibrary.version`, against the CHANGELOG: cutting a release
/// bumps the constant and moves `## [Unreleased]` to `## [<version>] - <date>` together.
@Suite("The library's version and the CHANGELOG")
struct ReleaseVersionTests {
    /// The repository's `CHANGELOG.md`, three folders up from this file.
    static let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")

    /// The version of each `## [<version>] - <date>` heading, in order (`Unreleased` left out).
    static func releasedVersions(in text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            guard line.hasPrefix("## ["), let close = line.firstIndex(of: "]") else { return nil }
            let version = String(line[line.index(line.startIndex, offsetBy: 4)..<close])
            return version == "Unreleased" ? nil : version
        }
    }

    @Test("the version is MAJOR.MINOR.PATCH")
    func semanticVersion() {
        let parts = TrackingLibrary.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    }

    @Test("the CHANGELOG's latest release heading is TrackingLibrary.version, with its link reference")
    func changelogLatestRelease() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first(where: { $0.hasPrefix("## ") }) == "## [Unreleased]")
        #expect(Self.releasedVersions(in: text).first == TrackingLibrary.version)
        #expect(lines.contains { $0.hasPrefix("## [\(TrackingLibrary.version)] - ") })
        #expect(lines.contains { $0.hasPrefix("[\(TrackingLibrary.version)]: ") })
        #expect(lines.contains { $0.hasPrefix("[Unreleased]: ") })
    }

    @Test("the heading parser skips Unreleased and reads versions in order")
    func parser() {
        let sample = "# Changelog\n\n## [Unreleased]\n\n### Added\n- x\n\n## [1.2.0] - 2027-01-02\n\n## [1.1.0] - 2026-12-01\n"
        #expect(Self.releasedVersions(in: sample) == ["1.2.0", "1.1.0"])
        #expect(Self.releasedVersions(in: "## Unreleased\n### Durability\n").isEmpty)
    }
}
