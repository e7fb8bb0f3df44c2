import Foundation

/// The benchmark's figures.
public struct BenchResult {
    /// The figures, in the order they were measured.
    var values: [(key: String, value: Double, unit: String, target: String)] = []

    mutating func add(_ key: String, _ value: Double, unit: String, target: String = "") {
        values.append((key, value, unit, target))
    }

    /// The figures as one JSON object, in order.
    public var json: String {
        "{" + values.map { "\"\($0.key)\":\(format($0.value, json: true))" }.joined(separator: ",") + "}"
    }

    /// The figures as a table: key, value with its unit, target.
    public var table: String {
        let width = values.map(\.key.count).max() ?? 10
        var lines = ["figure".padding(toLength: width, withPad: " ", startingAt: 0) + "  value            target"]
        for row in values {
            let value = (format(row.value, json: false) + " " + row.unit).padding(toLength: 16, withPad: " ", startingAt: 0)
            lines.append(row.key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value + " " + row.target)
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double, json: Bool) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(format: json ? "%.3f" : "%.2f", value)
    }
}
