/// What one stage's walk of an event's ``UserData`` found, kept on the event for later stages
/// that would otherwise walk it again: the contract validator's walk serves the duplicate
/// detector's fingerprint and the redactor's screen. ``TrackedEvent`` drops it whenever its
/// userData changes, so a digest always describes the userData it travels with.
package struct UserDataDigest: Sendable {
    /// The sums, over the userData's members, of each member's two 64-bit content-hash lanes
    /// (its key, then its value): the order-free part of the content fingerprint.
    package var memberSums: (low: UInt64, high: UInt64)
    /// The id of the sensitive-key matcher that found no sensitive key in the userData's
    /// top level and no array or object to look into (so nothing in it to redact), or 0 when
    /// none did.
    package var screenedBy: UInt64

    /// A digest of member sums `memberSums`, screened by the matcher `screenedBy` (0: not screened).
    package init(memberSums: (low: UInt64, high: UInt64), screenedBy: UInt64) {
        self.memberSums = memberSums
        self.screenedBy = screenedBy
    }
}
