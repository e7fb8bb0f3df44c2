import Foundation
import Tracking

/// A ``DataContract`` compiled once for checking: for each category, and each event name and
/// action the contract gives extra rules for, the ``CompiledFields`` that apply, merged as
/// ``CategoryContract/fields(name:action:)`` merges them.
struct CompiledContract: Sendable {
    /// One category's tables: a reference, so that looking it up copies nothing but a pointer.
    final class Category: Sendable {
        /// The fields of one event name: for any action, and for each action named.
        final class Named: Sendable {
            /// The fields for an action the contract has no extra rules for.
            let anyAction: CompiledFields
            /// The fields by action.
            let byAction: StringTable<CompiledFields>

            /// Holds the fields of one name.
            init(anyAction: CompiledFields, byAction: [String: CompiledFields]) {
                self.anyAction = anyAction
                self.byAction = StringTable(byAction)
            }
        }

        /// The category's own fields: for a name the contract has no extra rules for.
        let fields: CompiledFields
        /// By event name.
        let byName: StringTable<Named>

        /// Holds a category's tables.
        init(fields: CompiledFields, byName: [String: Named]) {
            self.fields = fields
            self.byName = StringTable(byName)
        }

        /// The fields for an event with `name` and `action`.
        func fields(name: String, action: String) -> CompiledFields {
            guard let named = byName[name] else { return fields }
            return named.byAction[action] ?? named.anyAction
        }
    }

    /// The tables by category.
    let categories: StringTable<Category>
    /// What an `unknown_category` violation expects: `one of [A, B]`.
    let unknownCategoryExpectation: String

    /// Compiles `contract`; `sensitive` tells the sensitive keys.
    init(_ contract: DataContract, sensitive: SensitiveKeyMatcher) {
        var patterns: [String: CompiledPattern] = [:]
        for category in contract.categories.values {
            let rules = Array(category.fields.values) + category.events.flatMap { Array($0.fields.values) }
            for rule in rules {
                if case .regex(let pattern)? = rule.format, patterns[pattern] == nil { patterns[pattern] = CompiledPattern(pattern) }
            }
        }
        categories = StringTable(contract.categories.mapValues { category in
            func compile(_ fields: [String: FieldRule]) -> CompiledFields {
                CompiledFields(fields, allowsUnknownFields: category.allowsUnknownFields, patterns: patterns, sensitive: sensitive)
            }
            var byName: [String: Category.Named] = [:]
            for name in Set(category.events.map(\.name)) {
                let actions = Set(category.events.filter { $0.name == name }.compactMap(\.action))
                let anyAction = compile(category.fields { $0.name == name && $0.action == nil })
                let byAction = Dictionary(uniqueKeysWithValues: actions.map { ($0, compile(category.fields(name: name, action: $0))) })
                byName[name] = Category.Named(anyAction: anyAction, byAction: byAction)
            }
            return Category(fields: compile(category.fields), byName: byName)
        })
        unknownCategoryExpectation = "one of [" + contract.categories.keys.sorted().joined(separator: ", ") + "]"
    }
}
