import Foundation
import Tracking

/// Collects violations across threads for strict mode.
final class ViolationRecorder: Sendable {
    private let violations = LockedValue<[ContractViolation]>([])

    var all: [ContractViolation] { violations.withLock { $0 } }
    func append(_ more: [ContractViolation]) { violations.withLock { $0.append(contentsOf: more) } }
    func reset() { violations.withLock { $0.removeAll() } }
}
