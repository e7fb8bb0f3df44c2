import DataQuality
import Foundation
import Tracking

/// The identity store of a runtime whose store cannot be read yet (iOS, before the first unlock
/// after boot): it starts empty, keeps what the app changes meanwhile (log in, opt out, consent)
/// in memory, in order, and replays it onto the real store once that opens.
///
/// An installation id is never minted here and then replaced silently: events wait, unhydrated,
/// until the store opens (see `StartGate`), so one is only made here if the app reads
/// ``Analytics/installationID`` meanwhile. On replay, the stored id wins when there is one and the
/// provisional one is reported; when the store has none, the provisional one is kept.
final class ProvisionalIdentityStore: IdentityStore {
    /// The values set meanwhile, and every change in order, for the replay.
    private struct Changes {
        var values: [String: String] = [:]
        var log: [(key: String, value: String?)] = []
    }

    private let state = LockedValue(Changes())

    /// The key under which `Identity` keeps the installation id.
    static let installationIDKey = "identity.installationId"

    /// The value set meanwhile under `key`.
    func value(forKey key: String) -> String? { state.withLock { $0.values[key] } }

    /// Keeps `value` under `key`, and the change for the replay.
    func setValue(_ value: String, forKey key: String) {
        state.withLock {
            $0.values[key] = value
            $0.log.append((key, value))
        }
    }

    /// Removes `key`, and keeps the removal for the replay.
    func removeValue(forKey key: String) {
        state.withLock {
            $0.values.removeValue(forKey: key)
            $0.log.append((key, nil))
        }
    }

    /// Applies the changes made meanwhile to `store`, in order, except an installation id where
    /// `store` has one already.
    /// - Returns: the problems met: a provisional installation id set aside for the stored
    ///   one, a change that could not be written.
    func replay(onto store: any IdentityStore) -> [String] {
        let pending = state.withLock { $0.log }
        var problems: [String] = []
        for (key, value) in pending {
            if key == Self.installationIDKey, let value, let stored = store.value(forKey: key), stored != value {
                problems.append("the installation id read before the store opened (\(value)) is replaced by the stored one (\(stored))")
                continue
            }
            do {
                if let value { try store.setValue(value, forKey: key) } else { try store.removeValue(forKey: key) }
            } catch {
                problems.append("cannot keep \(key), changed before the store opened: \(error)")
            }
        }
        return problems
    }
}
