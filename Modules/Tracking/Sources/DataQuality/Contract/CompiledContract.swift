import Foundation
import Tracking

/// A ``DataContract`` compiled once for checking: for each category, and each event name and
/// action the contract gives extra rules for, the ``CompiledFields`` that apply, merged as
/// ``CategoryContract/fields(name:action:)`` merges them.
struct CompiledContract: Sendable {
    /// One category's tables.
    struct Category: Sendable {
        /// The category's own fields: for a name the contract has no extra rules for.
        let fields: CompiledFields
        /// By event name: the fields for any action, and those for each action named.
        let byName: [String: (anyAction: CompiledFields, byAction: [String: CompiledFields])]

        /// The fields for an event with `name` and `action`.
        func fields(name: String, action: String) -> CompiledFields {
            guard !byName.isEmpty, let named = byName[name] else { return fields }
            return named.byAction[action] ?? named.anyAction
        }
    }

    /// The tables by category.
    let categories: [String: Category]
    /// What an `unknown_category` violation expects: `one of [A, B]`.
    let unknownCategoryExpectation: String

    /// Compiles `contract`.
    init(_ contract: DataContract) {
        var patterns: [String: CompiledPattern] = [:]
        for category in contract.categories.values {
            let rules = Array(category.fields.values) + category.events.flatMap { Array($0.fields.values) }
            for rule in rules {
                if case .regex(let pattern)? = rule.format, patterns[pattern] == nil { patterns[pattern] = CompiledPattern(pattern) }
            }
        }
        categories = contract.categories.mapValues { category in
            func compile(_ fields: [String: FieldRule]) -> CompiledFields {
                CompiledFields(fields, allowsUnknownFields: category.allowsUnknownFields, patterns: patterns)
            }
            var byName: [String: (anyAction: CompiledFields, byAction: [String: CompiledFields])] = [:]
            for name in Set(category.events.map(\.name)) {
                let actions = Set(category.events.filter { $0.name == name }.compactMap(\.action))
                let anyAction = compile(category.fields { $0.name == name && $0.action == nil })
                let byAction = Dictionary(uniqueKeysWithValues: actions.map { ($0, compile(category.fields(name: name, action: $0))) })
                byName[name] = (anyAction, byAction)
            }
            return Category(fields: compile(category.fields), byName: byName)
        }
        unknownCategoryExpectation = "one of [" + contract.categories.keys.sorted().joined(separator: ", ") + "]"
    }
}
