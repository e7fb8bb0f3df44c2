/// Identifies an observer of ``Diagnostics`` or ``PrivacyControls`` so it can be removed.
public struct ObserverToken: Sendable, Hashable {
    /// The registry's number for the observer.
    let value: Int
}
