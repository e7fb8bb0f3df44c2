import Foundation

/// Runs this executable again as a child process, for a figure that must come from a fresh process.
enum ChildProcess {
    /// Runs this executable with `arguments` and returns the number it printed on a line
    /// `<key> <value>`.
    /// - Throws: ``BenchError`` when the child failed or printed no such line.
    static func measure(arguments: [String], key: String) throws -> Double {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executablePath)
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) exited with status \(child.terminationStatus)")
        }
        let line = text.split(separator: "\n").first { $0.hasPrefix(key + " ") }
        guard let value = line.flatMap({ Double($0.dropFirst(key.count + 1)) }) else {
            throw BenchError("\(arguments.joined(separator: " ")) printed no \(key): \(text)")
        }
        return value
    }

    /// This executable: `/proc/self/exe` on Linux, else the path it was started with.
    static var executablePath: String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
