import Dispatcher
import Foundation

/// The `demo` command: a scripted journey by default, subcommands for the rest.
let arguments = Array(CommandLine.arguments.dropFirst())
// Before the first `await`: past this point a missing thread or descriptor cannot be reported.
if let shortage = Dispatcher.resourceShortage() {
    FileHandle.standardError.write(Data("demo: \(shortage)\n".utf8))
    exit(1)
}
// The idle probes run here, on the main actor before any task: see BenchCommand.runIdleProbe.
if let status = await BenchCommand.runIdleProbe(arguments) { exit(status) }
let status = await DemoCommand.run(arguments)
exit(status)
