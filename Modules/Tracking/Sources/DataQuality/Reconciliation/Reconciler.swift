import Foundation
import Tracking

/// Compares two NDJSON event streams, for example ours and a control SDK's export.
///
/// Events are matched by the first of ``idKeys`` each line has (`id`, then `messageId`
/// (Segment), then `eid` (Snowplow)), case-insensitively. Matched events are compared field by
/// field, nested objects by dotted path; numbers compare by value.
///
/// ```swift
/// let report = try Reconciler().reconcile(ours: oursURL, theirs: controlURL)
/// print(report)
/// ```
public struct Reconciler: Sendable {
    /// The keys tried, in order, to find an event's id.
    public var idKeys: [String]
    /// Top-level or dotted fields left out of the comparison (timestamps of sending, for example).
    public var ignoredFields: Set<String>
    /// When set, only these top-level or dotted fields (and what is under them) are compared.
    public var comparedFields: Set<String>?
    /// Renames the control's fields to ours before comparing, by dotted prefix: for a Segment
    /// export, `["event": "name", "properties": "userData"]`.
    public var theirFieldNames: [String: String]

    /// Creates a reconciler.
    /// - Parameters:
    ///   - idKeys: the keys tried to find an event's id.
    ///   - ignoredFields: fields left out of the comparison.
    ///   - comparedFields: when set, the only fields compared.
    ///   - theirFieldNames: the control's field prefixes renamed to ours.
    public init(
        idKeys: [String] = ["id", "messageId", "eid"],
        ignoredFields: Set<String> = ["sentAt", "receivedAt", "stm"],
        comparedFields: Set<String>? = nil,
        theirFieldNames: [String: String] = [:]
    ) {
        self.idKeys = idKeys
        self.ignoredFields = ignoredFields
        self.comparedFields = comparedFields
        self.theirFieldNames = theirFieldNames
    }

    /// Compares two NDJSON files.
    /// - Throws: the read error of either file.
    public func reconcile(ours: URL, theirs: URL) throws -> ReconciliationReport {
        try reconcile(ours: Data(contentsOf: ours), theirs: Data(contentsOf: theirs))
    }

    /// Compares two NDJSON texts.
    public func reconcile(ours: Data, theirs: Data) -> ReconciliationReport {
        var report = ReconciliationReport()
        let (ourEvents, ourOrder, ourDuplicates) = read(ours, side: "ours", into: &report.unreadable)
        let (theirEvents, theirOrder, theirDuplicates) = read(theirs, side: "theirs", into: &report.unreadable)
        report.duplicatedInOurs = ourDuplicates
        report.duplicatedInTheirs = theirDuplicates
        report.extra = ourOrder.filter { theirEvents[$0] == nil }
        report.missing = theirOrder.filter { ourEvents[$0] == nil }
        for id in ourOrder {
            guard let mine = ourEvents[id], let other = theirEvents[id] else { continue }
            report.matched += 1
            let left = flatten(mine), right = renamed(flatten(other))
            for field in Set(left.keys).union(right.keys).sorted() where isCompared(field) {
                let a = left[field], b = right[field]
                if !same(a, b) {
                    report.differences.append(.init(id: id, field: field, ours: a.map(JSONText.encode), theirs: b.map(JSONText.encode)))
                }
            }
        }
        return report
    }

    private func read(_ data: Data, side: String, into unreadable: inout [ReconciliationReport.UnreadableLine])
        -> (events: [String: UserData], order: [String], duplicates: [String])
    {
        var events: [String: UserData] = [:]
        var order: [String] = []
        var duplicates: [String] = []
        let decoder = JSONDecoder()
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }
            let trimmed = line.drop(while: isBlank)
            if trimmed.allSatisfy(isBlank) { continue }
            guard let object = try? decoder.decode(UserData.self, from: Data(trimmed)) else {
                unreadable.append(.init(side: side, line: index + 1, reason: "not a JSON object"))
                continue
            }
            guard let id = idKeys.lazy.compactMap({ object[$0]?.stringValue }).first else {
                unreadable.append(.init(side: side, line: index + 1, reason: "no id (looked for \(idKeys.joined(separator: ", ")))"))
                continue
            }
            let key = id.lowercased()
            if events[key] != nil {
                if !duplicates.contains(key) { duplicates.append(key) }
                continue
            }
            events[key] = object
            order.append(key)
        }
        return (events, order, duplicates)
    }

    private func isCompared(_ field: String) -> Bool {
        func covered(by set: Set<String>) -> Bool {
            set.contains { field == $0 || field.hasPrefix($0 + ".") || field.hasPrefix($0 + "[") }
        }
        if idKeys.contains(field) || covered(by: ignoredFields) { return false }
        if let comparedFields { return covered(by: comparedFields) }
        return true
    }

    private func flatten(_ object: UserData, prefix: String = "", into result: inout [String: UserDataValue]) {
        for (key, value) in object {
            let path = prefix.isEmpty ? key : prefix + "." + key
            if case .object(let nested) = value, !nested.isEmpty {
                flatten(nested, prefix: path, into: &result)
            } else {
                result[path] = value
            }
        }
    }

    private func flatten(_ object: UserData) -> [String: UserDataValue] {
        var result: [String: UserDataValue] = [:]
        flatten(object, into: &result)
        return result
    }

    private func renamed(_ fields: [String: UserDataValue]) -> [String: UserDataValue] {
        guard !theirFieldNames.isEmpty else { return fields }
        var result: [String: UserDataValue] = [:]
        for (path, value) in fields {
            var target = path
            for (theirs, ours) in theirFieldNames where path == theirs || path.hasPrefix(theirs + ".") {
                target = ours + path.dropFirst(theirs.count)
                break
            }
            result[target] = value
        }
        return result
    }

    private func same(_ left: UserDataValue?, _ right: UserDataValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case let (left?, right?):
            if left == right { return true }
            if let a = left.doubleValue, let b = right.doubleValue { return a == b }
            if case .string(let a) = left, case .string(let b) = right,
               UUID(uuidString: a) != nil, a.lowercased() == b.lowercased() { return true }
            return false
        default: return false
        }
    }
}
