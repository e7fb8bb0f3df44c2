import Foundation

/// The parsed options of one subcommand: `--name value` pairs and bare `--flag`s.
struct CommandLineOptions {
    /// Options that take a value, by name without the dashes.
    private(set) var values: [String: String] = [:]
    /// Flags that were given.
    private(set) var flags: Set<String> = []
    /// Arguments that are not options, in order.
    private(set) var positional: [String] = []

    /// Parses `arguments`, accepting only the named options and flags.
    /// - Throws: ``UsageError`` naming the first unknown option or missing value.
    init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagOptions.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if valueOptions.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option --\(name) needs a value")
                }
            } else {
                throw UsageError("unknown option '\(argument)' (see --help)")
            }
        }
    }

    /// The value of `--name`, if given.
    func value(_ name: String) -> String? { values[name] }

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The integer value of `--name`, or `defaultValue` when absent.
    /// - Throws: ``UsageError`` when present but not a whole number within `range`.
    func int(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The number of seconds in `--name`, or `defaultValue` when absent.
    func seconds(_ name: String, default defaultValue: Double) throws -> Double {
        guard let text = values[name] else { return defaultValue }
        guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
            throw UsageError("--\(name) takes a number of seconds from 0 to 86400, got '\(text)'")
        }
        return number
    }

    /// The value of `--name`, which must be one of `choices`.
    func choice(_ name: String, default defaultValue: String, from choices: [String]) throws -> String {
        guard let text = values[name] else { return defaultValue }
        guard choices.contains(text) else {
            throw UsageError("--\(name) takes one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}

/// A command-line mistake: printed as one line on standard error, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
