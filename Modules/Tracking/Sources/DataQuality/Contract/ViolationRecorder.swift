import Foundation
import Tracking

/// Collects violations across threads for strict mode.
final class ViolationRecorder: @unchecked Sendable {
    // Safe: `violations` is only touched while holding `lock`.
    private let lock = NSLock()
    private var violations: [ContractViolation] = []

    var all: [ContractViolation] { lock.withLock { violations } }
    func append(_ more: [ContractViolation]) { lock.withLock { violations.append(contentsOf: more) } }
    func reset() { lock.withLock { violations.removeAll() } }
}
