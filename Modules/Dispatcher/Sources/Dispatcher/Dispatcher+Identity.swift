extension Dispatcher {
    /// A field of the runtime's identity record (installation and user ids, session and privacy
    /// state), kept in the store so that ``purge(isolation:)`` erases it with the events; nil when unset.
    ///
    /// Each field is saved on its own, so saving one never rewrites another that a purge erased.
    /// - Throws: ``StoreError/closed(path:)`` while the store is not open.
    public func savedIdentity(_ field: String) throws -> String? {
        try metadata(Self.identityKey(field))
    }

    /// Saves `value` as the identity record's `field`; nil removes the field.
    /// - Throws: ``StoreError/closed(path:)`` while the store is not open, or why the store
    ///   could not write.
    public func saveIdentity(_ value: String?, for field: String) throws {
        try setMetadata(Self.identityKey(field), value)
    }

    /// The metadata key of an identity field. Keys starting with `_` are the Dispatcher's own
    /// (journal position, clock baseline, delivery hold), which purge keeps: such a field is
    /// stored under `identity.` and its name, so it can neither overwrite them nor outlive a purge.
    static func identityKey(_ field: String) -> String {
        field.hasPrefix("_") ? "identity." + field : field
    }
}
