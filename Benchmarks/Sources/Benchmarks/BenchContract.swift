/// The contract of the benchmark's own events (``LoadGenerator``'s mix), in the JSON form a team
/// keeps in a file: every field typed, two of them constrained, so the validator checks each
/// field of each event and finds nothing wrong, as in an app whose contract matches its code.
enum BenchContract {
    static let json = """
    {
      "categories": {
        "Cart": {
          "fields": {
            "sku": {"type": "string"},
            "quantity": {"type": "integer"},
            "price": {"type": "number"},
            "gift": {"type": "boolean"}
          },
          "events": [
            {"name": "add", "action": "select", "fields": {"sku": {"type": "string", "mandatory": true}}}
          ]
        },
        "Wishlist": {
          "fields": {
            "itemID": {"type": "string"},
            "position": {"type": "integer"},
            "source": {"type": "string", "allowed": ["home", "search", "product_detail"]},
            "sale": {"type": "boolean"}
          }
        },
        "Onboarding": {
          "fields": {
            "method": {"type": "string", "allowed": ["email", "apple", "google"]},
            "attempt": {"type": "integer"},
            "remember": {"type": "boolean"},
            "latencyMs": {"type": "number"}
          }
        }
      }
    }
    """
}
