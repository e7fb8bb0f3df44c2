import DataQuality
@_spi(Tasks) import Dispatcher
import Foundation

/// Opt-out, consent and purge: the privacy controls of the runtime.
extension Analytics {
    /// Whether the user opted out of tracking.
    public var isOptedOut: Bool {
        awaitStart()
        return quality.privacy.isOptedOut
    }

    /// Stops tracking: nothing leaves the device from now on. Every later event is dropped
    /// before any stage sees it, and counted; every event already queued (stored, held, in the
    /// journal, or claimed for delivery) is deleted, and overwritten on disk, and the request in
    /// flight, if any, is cancelled. The decision is saved at once and the deletion runs in the
    /// background (``settle(isolation:)`` waits for it); a process that dies first deletes them at its
    /// next start. Identifiers are kept (``purge(isolation:)`` forgets them).
    public func optOut() { quality.privacy.optOut() }

    /// Resumes tracking after ``optOut()``.
    public func optIn() { quality.privacy.optIn() }

    /// The decision for a category that needs consent.
    public func consent(for category: String) -> ConsentDecision {
        awaitStart()
        return quality.privacy.consent(for: category)
    }

    /// Records the user's consent for a category. Granted releases the category's held events
    /// for delivery; denied deletes them (overwritten on disk). New events follow the decision
    /// at once; the stored ones are done in the background (``settle(isolation:)`` waits for it), and again
    /// at every start, so a process that dies in between cannot leave them held.
    public func setConsent(_ decision: ConsentDecision, for category: String) {
        quality.privacy.setConsent(decision, for: category)
    }

    /// Forgets everything: identifiers, the session, opt-out, consent, and every event sent
    /// before the call. Returns once the stored events and identifiers are gone (overwritten on
    /// disk, journal files removed), so events sent afterwards (with a new installation id) are
    /// kept, and that id with them. No event sent before the call is sent after it returns: the
    /// request in flight is cancelled and awaited, the batch claimed ahead of it is never sent.
    /// While the store is opening, unavailable or released for suspension, it returns once the
    /// deletion is saved beside the store (`<store>.erasure`); it is applied before the store is
    /// used or anything is delivered, at the next open in this process or a later one.
    /// When the store cannot be written (locked or failing for 10 s while events wait in the
    /// journal), what it held is still deleted and the failure is reported in ``settle(isolation:)``'s lines
    /// and ``diagnostics`` (`privacy_not_applied`): call it again once the store works.
    public func purge(isolation: isolated (any Actor)? = #isolation) async {
        await LibraryTask.run {
            quality.purge()
            renewRedactionKey()
            // The store's purge deletes every event persisted by then and the whole metadata: it
            // must finish before anything new is sent or a new identifier is saved.
            _ = await bridge.settle()
        }
    }

    /// Gives the installation a new redaction key, so that a value hashed after a purge does not
    /// match its hash from before. When the key file cannot be replaced (reported), hashes use a
    /// key of this process's own until the next start.
    private func renewRedactionKey() {
        let quality = configuration.quality
        guard quality.redaction == .hash, !quality.sensitiveKeys.isEmpty else { return }
        let path = StackRecipe.redactionKeyPath(of: dispatcher.configuration.storePath)
        do {
            self.quality.replaceRedactionKey(try RedactionKey.replace(atPath: path))
        } catch {
            self.quality.replaceRedactionKey(.random())
            diagnostics.record(.storage, code: "redaction_key", message: "\(error); hashes match only until the process ends")
        }
    }

    /// Waits until every privacy decision so far has been applied to the stored events.
    /// - Returns: one line per decision applied since the start, saying what it did.
    @discardableResult
    public func settle(isolation: isolated (any Actor)? = #isolation) async -> [String] { await LibraryTask.run { await bridge.settle() } }
}
