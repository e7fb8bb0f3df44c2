import Foundation
import Tracking

/// The per-session and per-identifier strings of hydration, computed once instead of per event.
final class HydrationCache: @unchecked Sendable {
    // Safe: every mutable property is only touched while holding `lock`.
    private let lock = NSLock()
    private var installation = IdentifierText()
    private var instance = IdentifierText()
    private var session: (key: SessionKey, parts: SessionParts)?

    /// What identifies the strings of one session.
    private struct SessionKey: Equatable {
        let sessionID: UUID
        let sessionIndex: Int
        let installation: String
    }

    /// The session's context object and client_session data, without the event index.
    struct SessionParts {
        let context: [String: UserDataValue]
        let clientSession: [String: UserDataValue]
    }

    /// The lowercased text of the last identifier asked for, made again only when it changes.
    private struct IdentifierText {
        private var last: (id: UUID, text: String)?

        mutating func text(for id: UUID) -> String {
            if let last, last.id == id { return last.text }
            let text = id.uuidString.lowercased()
            last = (id, text)
            return text
        }
    }

    func text(forInstallation id: UUID) -> String { lock.withLock { installation.text(for: id) } }

    func text(forInstance id: UUID) -> String { lock.withLock { instance.text(for: id) } }

    func parts(for snapshot: SessionSnapshot, installation: String, storageMechanism: String) -> SessionParts {
        let key = SessionKey(sessionID: snapshot.sessionID, sessionIndex: snapshot.sessionIndex, installation: installation)
        if let cached = lock.withLock({ session }), cached.key == key { return cached.parts }
        guard case .object(var context) = snapshot.contextValue else { return SessionParts(context: [:], clientSession: [:]) }
        context.removeValue(forKey: "eventIndex")
        var clientSession: [String: UserDataValue] = [
            "userId": .string(installation),
            "sessionId": context["id"] ?? .null,
            "sessionIndex": .int(min(snapshot.sessionIndex, Int(Int32.max))),
            "storageMechanism": .string(storageMechanism),
            "firstEventId": context["firstEventId"] ?? .null,
            "firstEventTimestamp": context["firstEventTimestamp"] ?? .null,
        ]
        clientSession["previousSessionId"] = context["previousId"] ?? .null
        let parts = SessionParts(context: context, clientSession: clientSession)
        lock.withLock { session = (key, parts) }
        return parts
    }
}
