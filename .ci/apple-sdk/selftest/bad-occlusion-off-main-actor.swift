// Reading the main actor's NSApplication from a nonisolated function: must fail in Swift 6.
import AppKit

func isVisible() -> Bool {
    NSApplication.shared.occlusionState.contains(.visible)
}
