import DataQuality
import Foundation

/// The demo's data contract, in the JSON form a team would keep in a file.
///
/// One rule is broken on purpose by the journey: `Cart.cardType` allows Visa, PayPal and
/// Apple Pay, and the scripted user pays with Mastercard, so that event is flagged
/// `value_not_allowed` (and still delivered).
enum DemoContract {
    static let json = """
    {
      "categories": {
        "Cart": {
          "fields": {
            "quantity": {"type": "integer"},
            "cardType": {"type": "string", "allowed": ["Visa", "PayPal", "Apple Pay"]}
          },
          "events": [
            {"name": "checkout", "action": "pay", "fields": {"quantity": {"type": "integer", "mandatory": true, "default": 1}}}
          ]
        },
        "Wishlist": {
          "fields": {
            "itemIDs": {"type": "array"},
            "itemID": {"type": "string"},
            "itemCount": {"type": "integer"},
            "isEmpty": {"type": "boolean"},
            "position": {"type": "integer"},
            "remaining": {"type": "integer"},
            "via": {"type": "string", "allowed": ["back_button", "swipe_back", "tab_bar", "product_detail", "basket"]},
            "tab": {"type": "string"}
          }
        },
        "Onboarding": {
          "fields": {
            "field": {"type": "string", "allowed": ["email", "password", "displayName"]},
            "fields": {"type": "array"},
            "fieldCount": {"type": "integer"},
            "consent": {"type": "string"},
            "granted": {"type": "boolean"},
            "legal": {"type": "boolean"},
            "marketing": {"type": "boolean"},
            "success": {"type": "boolean"}
          }
        },
        "Promotion": {
          "fields": {
            "campaign": {"type": "string", "mandatory": true}
          }
        }
      }
    }
    """

    static func load() throws -> DataContract { try DataContract.decode(Data(json.utf8)) }
}
