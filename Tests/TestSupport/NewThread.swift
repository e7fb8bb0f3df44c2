import Foundation

/// Runs `body` on a new thread of its own, outside Swift's cooperative pool; the returned group
/// is left when `body` returns.
public func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    Thread.detachNewThread {
        body()
        group.leave()
    }
    return group
}
