import Foundation

/// Runs this executable again as a child process, for a figure that must come from a fresh process.
enum ChildProcess {
    /// Runs this executable with `arguments` and returns the number it printed on a line
    /// `<key> <value>`.
    /// - Throws: ``BenchError`` when the child failed or printed no such line.
    static func measure(arguments: [String], key: String) throws -> Double {
        try measure(arguments: arguments, keys: [key])[key] ?? .nan
    }

    /// Runs `executable` (this executable when nil) with `arguments` and returns the number it
    /// printed on a line `<key> <value>` for each of `keys`.
    /// - Throws: ``BenchError`` when the child failed or left one of `keys` out.
    static func measure(arguments: [String], keys: [String], executable: URL? = nil) throws -> [String: Double] {
        let child = Process()
        child.executableURL = executable ?? URL(fileURLWithPath: executablePath)
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let command = arguments.joined(separator: " ")
        guard child.terminationStatus == 0 else { throw BenchError("\(command) exited with status \(child.terminationStatus)") }
        var figures: [String: Double] = [:]
        for key in keys {
            let line = text.split(separator: "\n").first { $0.hasPrefix(key + " ") }
            guard let value = line.flatMap({ Double($0.dropFirst(key.count + 1)) }) else {
                throw BenchError("\(command) printed no \(key): \(text)")
            }
            figures[key] = value
        }
        return figures
    }

    /// This executable: `/proc/self/exe` on Linux, else the path it was started with.
    static var executablePath: String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
