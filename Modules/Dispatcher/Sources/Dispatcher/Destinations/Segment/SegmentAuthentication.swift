/// Where a ``SegmentDestination`` puts its write key.
public enum SegmentAuthentication: Sendable, Equatable {
    /// HTTP Basic authorization, `Authorization: Basic base64(writeKey + ":")`: the default.
    case basic
    /// The batch body's `writeKey` field, with no `Authorization` header, for collectors that
    /// read the key from the body.
    case body
}
