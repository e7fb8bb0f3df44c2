import Tracking

/// The stage that removes or hashes sensitive values before anything is stored or printed.
///
/// Keys are matched case-insensitively, at any depth: inside nested objects and objects in
/// arrays, in both userData and context. Inside the context objects hydration builds
/// (``builtInObjectKeys``: app, device, OS, library, session and the Snowplow entities,
/// whose fields are fixed by their schemas) only the top-level key itself is checked: they hold
/// no user-provided data. Place it before any plugin (the console prints what
/// it receives) and after ``ContractValidator`` (which must see the fields to check them).
struct Redactor: EventProcessor {
    /// What happens to a sensitive value.
    enum Strategy: Sendable, Equatable {
        /// The key is removed.
        case remove
        /// The value is replaced by `hmac:` and the first 16 hex digits of the HMAC-SHA256 of the
        /// value (its text, or its JSON) under the installation's secret ``RedactionKey``: equal
        /// values still match within one installation, and without the key nobody can test a
        /// guess. Pseudonymisation, not anonymisation: the installation itself can still link
        /// a value to its hash.
        case hash(key: RedactionKey)
    }

    /// The sensitive keys, lowercased.
    public var sensitiveKeys: Set<String> { matcher.keys }
    /// What happens to their values now.
    public var strategy: Strategy { keys.strategy }
    private let matcher: SensitiveKeyMatcher
    /// The strategy, replaceable, and the redacted form of the last shared context seen, by
    /// identity: a shared context is redacted once, and every event sharing it then shares the
    /// redacted one.
    let keys: RedactionKeyHolder

    /// The context keys whose nested contents hydration builds from device, library, identity
    /// and session facts only: the key itself is checked, its contents are not walked. A list:
    /// six short keys are found faster by comparing them than by hashing the key looked up.
    private static let builtInObjectKeys = [
        ContextKey.app, ContextKey.device, ContextKey.os, ContextKey.library, ContextKey.session, ContextKey.snowplowEntities,
    ]

    /// Creates a redactor.
    /// - Parameters:
    ///   - sensitiveKeys: the keys to redact, any case.
    ///   - strategy: remove or hash; hashing under a new random key by default.
    public init(sensitiveKeys: some Sequence<String>, strategy: Strategy = .hash(key: .random())) {
        self.init(matcher: SensitiveKeyMatcher(sensitiveKeys), strategy: strategy)
    }

    /// Creates a redactor of the keys `matcher` matches: a ``ContractValidator`` sharing it
    /// screens each event's userData in its own walk, and this redactor then need not walk it.
    init(matcher: SensitiveKeyMatcher, strategy: Strategy) {
        self.matcher = matcher
        keys = RedactionKeyHolder(strategy)
        sessionKeyIsSensitive = matcher.matches(ContextKey.session)
    }

    /// Whether the key `session` is itself sensitive: when not, an own context holding only it
    /// (hydration's `[session: [eventIndex: n]]`, a built-in object) has nothing to redact.
    private let sessionKeyIsSensitive: Bool

    /// Redacts the event's userData and own context, and its shared context once per shared
    /// instance (every event sharing one then shares its redacted form); never stops it.
    public func process(_ event: inout TrackedEvent) -> Bool {
        guard !sensitiveKeys.isEmpty else { return true }
        // Not walked when a walk with this matcher found nothing to redact in this very userData
        // (the digest is dropped whenever userData changes).
        if event.userDataDigest?.screenedBy != matcher.id, let userData = redacted(event.userData) { event.userData = userData }
        if !isSessionIndexOnly(event.eventContext), let own = redacted(event.eventContext, skippingBuiltIns: true) { event.eventContext = own }
        // A shared context this redactor's matcher screened when it was made has nothing to
        // redact under any key: passed on as it is, with no lookup.
        if let shared = event.sharedContext, shared.screenedBy != matcher.id {
            event.sharedContext = keys.sharedCache.value(for: shared) { original in
                redacted(original.values, skippingBuiltIns: true).map(SharedContext.init) ?? original
            }
        }
        return true
    }

    /// The id to make a shared context of `values` with (``Tracking/SharedContext/screenedBy``):
    /// this redactor's matcher's when nothing in them is to be redacted (their built-in objects'
    /// contents aside, as for a shared context), 0 otherwise.
    func screen(sharedValues values: UserData) -> UInt64 {
        redacted(values, skippingBuiltIns: true) == nil ? matcher.id : 0
    }

    /// `data` with every sensitive key removed or hashed, at any depth.
    public func redact(_ data: UserData) -> UserData { redacted(data) ?? data }

    /// The redacted copy of `data`, or `nil` when nothing in it is sensitive (so unchanged
    /// data is never rebuilt). With `skippingBuiltIns`, the contents of ``builtInObjectKeys`` are
    /// not walked.
    private func redacted(_ data: UserData, skippingBuiltIns: Bool = false) -> UserData? {
        if data.isEmpty { return nil }
        var result: UserData?
        for (key, value) in data {
            if isSensitive(key) {
                if result == nil { result = data }
                if case .hash(let secret) = keys.strategy {
                    result?[key] = .string(Self.hash(value, key: secret))
                } else {
                    result?.removeValue(forKey: key)
                }
            } else if value.isContainer, !(skippingBuiltIns && Self.isBuiltInObject(key)), let replacement = redacted(value) {
                if result == nil { result = data }
                result?[key] = replacement
            }
        }
        return result
    }

    private func redacted(_ value: UserDataValue) -> UserDataValue? {
        // Only objects and arrays can hold a sensitive key.
        switch value {
        case .object(let nested):
            return redacted(nested).map(UserDataValue.object)
        case .array(let elements):
            var result: [UserDataValue]?
            for (index, element) in elements.enumerated() {
                if let replacement = redacted(element) {
                    if result == nil { result = elements }
                    result?[index] = replacement
                }
            }
            return result.map(UserDataValue.array)
        default:
            return nil
        }
    }

    private func isSensitive(_ key: String) -> Bool { matcher.matches(key) }

    /// Whether `context` is hydration's usual own context, the built-in `session` object alone,
    /// and `session` is not a sensitive key: then nothing in it is redacted (its contents are
    /// not walked, as for every built-in object), and it is not walked at all.
    private func isSessionIndexOnly(_ context: UserData) -> Bool {
        // The first key alone, not the first member: that would copy (retain) its value too.
        context.count == 1 && !sessionKeyIsSensitive && context.keys.first == ContextKey.session
    }

    /// Whether `key` is one of ``builtInObjectKeys``: lengths compared first, texts only when equal.
    private static func isBuiltInObject(_ key: String) -> Bool {
        let length = key.utf8.count
        return builtInObjectKeys.contains { $0.utf8.count == length && $0 == key }
    }

    /// The replacement for a hashed value: `hmac:` and 16 hex digits of its HMAC-SHA256 under `key`.
    public static func hash(_ value: UserDataValue, key: RedactionKey) -> String {
        let text = value.stringValue ?? JSONText.encode(value)
        return "hmac:" + SHA256Digest.hex(of: HMACSHA256.code(key: key.bytes, message: text.utf8)).prefix(16)
    }
}

extension UserDataValue {
    /// Whether this is an object or an array: only these can hold a sensitive key.
    var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
