import Foundation

/// The `demo` command: a scripted journey by default, subcommands for the rest.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = await DemoCommand.run(arguments)
exit(status)
