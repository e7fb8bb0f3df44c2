import Tracking

/// The result of comparing two event streams: ours and a control's.
public struct ReconciliationReport: Sendable, Equatable, CustomStringConvertible {
    /// A field whose value differs between the two sides for one event.
    public struct FieldDifference: Sendable, Equatable, CustomStringConvertible {
        /// The event id.
        public var id: String
        /// The dotted path of the field, for example `userData.quantity`.
        public var field: String
        /// Our value as JSON, or `nil` when we do not have the field.
        public var ours: String?
        /// The control's value as JSON, or `nil` when it does not have the field.
        public var theirs: String?

        /// Creates a difference.
        public init(id: String, field: String, ours: String?, theirs: String?) {
            self.id = id
            self.field = field
            self.ours = ours
            self.theirs = theirs
        }

        /// `id field: ours ≠ theirs`.
        public var description: String { "\(id) \(field): \(ours ?? "(absent)") ≠ \(theirs ?? "(absent)")" }
    }

    /// A line that could not be read as a JSON object with an id.
    public struct UnreadableLine: Sendable, Equatable, CustomStringConvertible {
        /// `ours` or `theirs`.
        public var side: String
        /// The 1-based line number.
        public var line: Int
        /// Why.
        public var reason: String

        /// Creates an entry.
        public init(side: String, line: Int, reason: String) {
            self.side = side
            self.line = line
            self.reason = reason
        }

        /// `ours:3: reason`.
        public var description: String { "\(side):\(line): \(reason)" }
    }

    /// Events on both sides.
    public var matched: Int
    /// Ids the control has and we do not: events we lost.
    public var missing: [String]
    /// Ids we have and the control does not: events we sent extra.
    public var extra: [String]
    /// Ids that appear more than once on our side.
    public var duplicatedInOurs: [String]
    /// Ids that appear more than once on the control's side.
    public var duplicatedInTheirs: [String]
    /// Fields that differ on matched events.
    public var differences: [FieldDifference]
    /// Lines that could not be compared.
    public var unreadable: [UnreadableLine]

    /// Creates a report.
    public init(
        matched: Int = 0, missing: [String] = [], extra: [String] = [], duplicatedInOurs: [String] = [],
        duplicatedInTheirs: [String] = [], differences: [FieldDifference] = [], unreadable: [UnreadableLine] = []
    ) {
        self.matched = matched
        self.missing = missing
        self.extra = extra
        self.duplicatedInOurs = duplicatedInOurs
        self.duplicatedInTheirs = duplicatedInTheirs
        self.differences = differences
        self.unreadable = unreadable
    }

    /// The ids of matched events with at least one differing field.
    public var differingIDs: [String] {
        var seen: Set<String> = []
        return differences.compactMap { seen.insert($0.id).inserted ? $0.id : nil }
    }

    /// Whether the two streams agree completely.
    public var isClean: Bool {
        missing.isEmpty && extra.isEmpty && duplicatedInOurs.isEmpty && duplicatedInTheirs.isEmpty
            && differences.isEmpty && unreadable.isEmpty
    }

    /// A readable summary, then one section per kind of discrepancy.
    public var description: String {
        var lines = [
            "Reconciliation: \(matched) matched, \(missing.count) missing from ours, \(extra.count) extra in ours, "
                + "\(differingIDs.count) differing" + (isClean ? " — streams agree" : ""),
        ]
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines.append("\(title) (\(items.count)):")
            // Ids and values come from the files compared: shown with control characters escaped.
            lines.append(contentsOf: items.map { "  " + TerminalText.escaping($0) })
        }
        section("Missing from ours (control has them)", missing)
        section("Extra in ours (control lacks them)", extra)
        section("Duplicated ids in ours", duplicatedInOurs)
        section("Duplicated ids in theirs", duplicatedInTheirs)
        section("Differing fields", differences.map(\.description))
        section("Unreadable lines", unreadable.map(\.description))
        return lines.joined(separator: "\n")
    }
}
