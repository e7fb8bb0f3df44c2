enum InspectorPage { static func html(nonce: String) -> String { "<!doctype html><title>Inspector</title>" } }
