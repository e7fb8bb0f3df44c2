import Foundation

/// The parsed options of one subcommand: `--name value` pairs and bare `--flag`s.
struct CommandLineOptions {
    /// Options that take a value, by name without the dashes.
    private(set) var values: [String: String] = [:]
    /// Flags that were given.
    private(set) var flags: Set<String> = []
    /// Arguments that are not options, in order.
    private(set) var positional: [String] = []

    /// Parses `arguments` against `spec`: only its options, each at most once, and at most
    /// `spec.maxPositional` other arguments.
    /// - Throws: ``UsageError`` naming the first argument that is not accepted; for a mistyped
    ///   option, with the nearest option the command has (see ``OptionSuggestion``).
    init(_ arguments: [String], spec: CommandSpec) throws {
        let command = spec.invocation
        let valueOptions = spec.valueOptions
        let flagOptions = spec.flagOptions
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-"), argument.count > 1 {
                    let hint = spec.suggestion(for: String(argument.dropFirst())).map { "; did you mean --\($0)?" } ?? " (see \(command) --help)"
                    throw UsageError("unknown option '\(argument)' for \(command): options start with --\(hint)")
                }
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard valueOptions.contains(name) || flagOptions.contains(name) else {
                let hint = spec.suggestion(for: name).map { "; did you mean --\($0)?" } ?? " (see \(command) --help)"
                throw UsageError("unknown option '--\(name)' for \(command)\(hint)")
            }
            guard seen.insert(name).inserted else { throw UsageError("option --\(name) is given more than once") }
            if flagOptions.contains(name) {
                guard inlineValue == nil else { throw UsageError("option --\(name) takes no value, got '\(argument)'") }
                flags.insert(name)
            } else if let inlineValue {
                values[name] = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                values[name] = arguments[index]
                index += 1
            } else {
                throw UsageError("option --\(name) needs a value")
            }
        }
        if positional.count > spec.maxPositional {
            let stray = positional[spec.maxPositional]
            throw UsageError(spec.maxPositional == 0
                ? "\(command) takes no arguments, got '\(stray)' (options start with --; see \(command) --help)"
                : "\(command) takes at most \(spec.maxPositional) arguments, got an extra '\(stray)'")
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
    /// - Throws: ``UsageError`` unless it is more than 0 and at most 86400.
    func seconds(_ name: String, default defaultValue: Double) throws -> Double {
        guard let text = values[name] else { return defaultValue }
        guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
            throw UsageError("--\(name) must be more than 0 and at most 86400 seconds, got '\(text)'")
        }
        return number
    }

    /// The value of `--name`, which must be one of `choices`.
    /// - Throws: ``UsageError`` naming the choices when it is not one of them.
    func choice(_ name: String, default defaultValue: String, from choices: [String]) throws -> String {
        guard let text = values[name] else { return defaultValue }
        guard choices.contains(text) else {
            throw UsageError("--\(name) takes one of \(choices.joined(separator: ", ")), got '\(text)'")
        }
        return text
    }
}
