import DataQuality
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A data contract must be strict JSON (RFC 8259): each deviation is refused with its line and
/// column, from data and from a file; an unreadable file says why, in plain words.
@Suite("DataContract: strict JSON")
struct ContractStrictJSONTests {
    @Test("Each deviation from RFC 8259 is refused with its line and column", arguments: JSONDeviation.all)
    func deviationIsRefused(deviation: JSONDeviation) throws {
        let fromData = try #require(throws: DataContractError.self) { try DataContract.decode(Data(deviation.bytes)) }
        #expect(fromData.path == "(root)", "\(fromData)")
        #expect(fromData.reason.hasPrefix("not valid JSON at " + deviation.position), "\(fromData)")
        #expect(fromData.reason.contains(deviation.reason), "\(fromData)")

        let directory = try TemporaryDirectory(prefix: "contract-strict")
        let file = directory.file("contract.json")
        try Data(deviation.bytes).write(to: file)
        let fromFile = try #require(throws: DataContractError.self) { try DataContract.load(from: file) }
        #expect(fromFile.file == file.path)
        #expect(fromFile.description == "Invalid data contract (\(file.path)) at (root): \(fromData.reason)", "\(fromFile)")
    }

    @Test("A field named twice, or a trailing comma, is refused where Foundation would take it; without it the contract loads")
    func foundationLeniencyIsRefused() throws {
        let twice = """
        {"categories": {"Cart": {"fields": {
          "quantity": {"type": "integer"},
          "quantity": {"type": "string"}
        }}}}
        """
        #expect((try? JSONSerialization.jsonObject(with: Data(twice.utf8))) != nil, "Foundation accepts it: the point of the check")
        let duplicate = try #require(throws: DataContractError.self) { try DataContract.decode(Data(twice.utf8)) }
        #expect(duplicate.reason == #"not valid JSON at line 3, column 3: duplicate key "quantity" (first at line 2, column 3)"#, "\(duplicate)")

        let comma = #"{"categories": {"Cart": {"fields": {"quantity": {"type": "integer", "allowed": [1, 2,]}}}}}"#
        let trailing = try #require(throws: DataContractError.self) { try DataContract.decode(Data(comma.utf8)) }
        #expect(trailing.reason.hasPrefix("not valid JSON at line 1, column 85: trailing comma before ']'"), "\(trailing)")

        let contract = try DataContract.decode(Data(comma.replacingOccurrences(of: "2,]", with: "2]").utf8))
        #expect(contract.categories["Cart"]?.fields["quantity"]?.type == .integer)
        let sameKeyElsewhere = #"{"categories": {"A": {"fields": {"q": {"type": "integer"}}}, "B": {"fields": {"q": {"type": "string"}}}}}"#
        #expect(try DataContract.decode(Data(sameKeyElsewhere.utf8)).categories.count == 2)
    }

    @Test("A contract file that cannot be read says why: no such file, is a directory, permission denied")
    func unreadableFileSaysWhy() throws {
        let directory = try TemporaryDirectory(prefix: "contract-unreadable")
        var cases: [(URL, String)] = [
            (directory.file("absent.json"), "cannot read: no such file"),
            (directory.url, "cannot read: is a directory"),
        ]
        let locked = try directory.write(#"{"categories": {}}"#, to: "locked.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path) }
        // Root reads any file: the permission case only means something for other users.
        if getuid() != 0 { cases.append((locked, "cannot read: permission denied")) }
        for (url, reason) in cases {
            let error = try #require(throws: DataContractError.self) { try DataContract.load(from: url) }
            #expect(error.path == "(file)" && error.reason == reason, "\(error)")
            #expect(error.description == "Invalid data contract (\(url.path)) at (file): \(reason)")
        }
    }
}
