/// What a quality flag means, in one sentence, for the inspector's timeline.
///
/// The flags are ``Tracking/EventFlag`` codes: the core's own (`invalid_pair`, `nesting_truncated`
/// …), the data contract's (`unknown_field`, `wrong_type` …, see DataQuality's
/// `ContractViolation.Code`) and the duplicate detector's. A record carries them as `code` or
/// `code(detail)` (``Tracking/EventFlag/description``).
enum InspectorFlagReason {
    /// The reason of each known code.
    static let reasons: [String: String] = [
        "invalid_pair": "the name/action pair is not one the feature declared valid",
        "non_finite_number": "a number in the data was NaN or infinite and was sent as a string",
        "nesting_truncated": "arrays or objects nested too deep were replaced by a placeholder",
        "empty_name": "a screen call had an empty or blank name",
        "reserved_category": "the feature declared a category starting with $, which is reserved; the $ was removed",
        "awaiting_consent": "the category needs consent that is not known yet; the event is held until it is",
        "duplicate_id": "an event with the same id was seen before",
        "duplicate": "the same content was sent moments earlier",
        "unknown_field": "the event carries a field its data contract does not name",
        "missing_field": "a mandatory field is missing and has no default",
        "wrong_type": "a field has the wrong type for its data contract",
        "value_not_allowed": "a field's value is not one the data contract allows",
        "bad_format": "a string field does not have the format its data contract requires",
        "defaulted_field": "a mandatory field was missing and its default was filled in",
        "unknown_category": "the data contract does not name the event's category",
    ]

    /// `code(detail): reason`, or the flag alone for an unknown code.
    static func text(of flag: String) -> String {
        let code = flag.firstIndex(of: "(").map { String(flag[..<$0]) } ?? flag
        guard let reason = reasons[code] else { return flag }
        return flag + ": " + reason
    }
}
