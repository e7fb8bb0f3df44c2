import Foundation
import Tracking

/// Values nested thousands of levels deep, built and inspected without recursion.
public enum DeepValue {
    /// What each level is.
    public enum Kind: String, Sendable, CaseIterable {
        /// `{"next": …}` at every level.
        case object
        /// `[…]` at every level.
        case array
    }

    /// The depth limit the library documents (``UserDataValue/maximumDepth``), counting the
    /// userData object itself as level 1, and the string that replaces what lies deeper.
    public static let limit = 32
    public static let placeholder = "[truncated]"
    public static let flagCode = "nesting_truncated"

    /// `depth` arrays or objects inside one another around `bottom` (the string `"bottom"` by default).
    public static func make(_ kind: Kind, depth: Int, bottom: UserDataValue = "bottom") -> UserDataValue {
        var value = bottom
        for _ in 0..<depth { value = kind == .object ? .object(["next": value]) : .array([value]) }
        return value
    }

    /// Follows a chain made by ``make(_:depth:)`` as `JSONSerialization` parsed it: how many
    /// arrays or objects, and what sits at the bottom.
    public static func chain(_ json: Any?) -> (containers: Int, bottom: Any?) {
        var current = json
        var containers = 0
        while true {
            if let object = current as? [String: Any], object.count == 1, let next = object["next"] {
                current = next
            } else if let array = current as? [Any], array.count == 1 {
                current = array[0]
            } else {
                return (containers, current)
            }
            containers += 1
        }
    }

    /// The same for a value the library handed back.
    public static func chain(_ value: UserDataValue?) -> (containers: Int, bottom: UserDataValue?) {
        var current = value
        var containers = 0
        while true {
            switch current {
            case .object(let members)? where members.count == 1 && members["next"] != nil: current = members["next"]
            case .array(let elements)? where elements.count == 1: current = elements[0]
            default: return (containers, current)
            }
            containers += 1
        }
    }

    /// Parses JSON text or bytes with `JSONSerialization`, as a collector would.
    public static func parse(_ bytes: some Sequence<UInt8>) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }
}
