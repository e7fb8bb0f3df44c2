import Foundation
import Testing
import TestSupport
import Tracking
@testable import DataQuality

@Suite("Loading a data contract")
struct DataContractLoadingTests {
    private let valid = """
    {
      "categories": {
        "Cart": {
          "fields": {
            "quantity": {"type": "integer", "mandatory": true, "default": 1, "description": "items"},
            "cardType": {"type": "string", "allowed": ["Visa", "Mastercard"]},
            "coupon": {"type": "string", "pattern": "[A-Z]{3}"},
            "email": {"type": "string", "format": "email"}
          },
          "events": [{"name": "checkout", "action": "pay", "fields": {"total": {"type": "number", "mandatory": true}}}]
        }
      }
    }
    """

    private func decodingError(_ json: String) -> DataContractError? {
        do {
            _ = try DataContract.decode(Data(json.utf8))
            return nil
        } catch {
            return error as? DataContractError
        }
    }

    @Test func aValidContractDecodesAndRoundTrips() throws {
        let contract = try DataContract.decode(Data(valid.utf8))
        let cart = try #require(contract.categories["Cart"])
        #expect(cart.fields["quantity"] == FieldRule(.integer, mandatory: true, default: 1, summary: "items"))
        #expect(cart.fields["coupon"]?.format == .regex("[A-Z]{3}"))
        #expect(cart.fields(name: "checkout", action: "pay")["total"]?.mandatory == true)
        #expect(cart.fields(name: "checkout", action: "other")["total"] == nil)
        let again = try DataContract.decode(JSONEncoder().encode(contract))
        #expect(again == contract)
    }

    @Test func loadsFromAFileAndNamesTheFileOnError() throws {
        let folder = try TemporaryDirectory(prefix: "DataQualityTests")
        defer { folder.remove() }
        let good = try folder.write(valid, to: "contract.json")
        #expect(try DataContract.load(from: good).categories.count == 1)
        let bad = try folder.write(#"{"categories": {"Cart": {"fields": {"q": {"type": "int"}}}}}"#, to: "bad.json")
        let error = try #require(throws: DataContractError.self) { try DataContract.load(from: bad) }
        #expect(error.file == bad.path)
        #expect(error.description.contains("bad.json"))
    }

    @Test(arguments: [
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "int"}}}}}"#, "categories.Cart.fields.q.type", "unknown type 'int'"),
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "string", "format": "phone"}}}}}"#, "categories.Cart.fields.q.format", "unknown format 'phone'"),
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "string", "pattern": "[a-"}}}}}"#, "categories.Cart.fields.q.pattern", "not a valid regular expression"),
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "integer", "default": "x"}}}}}"#, "categories.Cart.fields.q.default", "does not satisfy"),
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "integer", "allowed": [1, "two"]}}}}}"#, "categories.Cart.fields.q.allowed", "is not of type integer"),
        (#"{"categories": {"Cart": {"fields": {"q": {"type": "integer", "mandatroy": true}}}}}"#, "categories.Cart.fields.q.mandatroy", "unknown field"),
        (#"{"categories": {"Cart": {"events": [{"action": "pay"}]}}}"#, "categories.Cart.events[0].name", "missing"),
        (#"{"categories": {"Cart": {"fields": {"q": {"mandatory": true}}}}}"#, "categories.Cart.fields.q.type", "missing"),
        (#"{"categories": ["Cart"]}"#, "categories", "expected"),
    ])
    func invalidContractsNameThePath(json: String, path: String, reason: String) throws {
        let error = try #require(decodingError(json))
        #expect(error.path == path, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func notJSONAtAllFails() {
        #expect(decodingError("{nope") != nil)
    }
}
