extension UserDataValue {
    /// The deepest arrays and objects may nest in an event's ``UserData``: 32 levels, the
    /// userData object itself counting as level 1 (`["a": [["b": 1]]]` is 3 deep).
    ///
    /// Collectors and JSON parsers accept 32 levels comfortably (many refuse input a few hundred
    /// levels deep), with room left for the levels a wire format wraps around userData. An array
    /// or object deeper than this is replaced, with everything in it, by
    /// ``truncationPlaceholder``, and the event is flagged ``EventFlag/userDataTruncated``.
    /// ``EventReporter`` cuts when it builds an event, so every plugin sees the cut value; the
    /// JSON writers cut the same way for events built by hand, so no depth crashes them.
    public static let maximumDepth = 32

    /// What replaces an array or object nested deeper than ``maximumDepth``: the string
    /// `"[truncated]"`.
    public static let truncationPlaceholder: UserDataValue = "[truncated]"

    /// Walks at most `levels` arrays and objects down, this value counting as one: notes
    /// whether something is nested deeper, and whether a non-finite number lies within reach.
    func inspect(levels: Int, into findings: inout UserDataFindings) {
        switch self {
        case .double(let value):
            if !value.isFinite { findings.nonFiniteNumber = true }
        case .array(let values):
            guard levels > 0 else { return findings.tooDeep = true }
            for value in values { value.inspect(levels: levels - 1, into: &findings) }
        case .object(let values):
            guard levels > 0 else { return findings.tooDeep = true }
            for value in values.values { value.inspect(levels: levels - 1, into: &findings) }
        default:
            break
        }
    }

    /// Whether the arrays and objects in this value nest at most `levels` deep, this value
    /// counting as one. Looks no more than `levels` down, whatever the value's depth.
    func fits(levels: Int) -> Bool {
        switch self {
        case .array(let values): levels > 0 && values.allSatisfy { $0.fits(levels: levels - 1) }
        case .object(let values): levels > 0 && values.values.allSatisfy { $0.fits(levels: levels - 1) }
        default: true
        }
    }

    /// This value with every array or object more than `levels` deep replaced by
    /// ``truncationPlaceholder``; parts that fit are kept as they are.
    func truncated(levels: Int) -> UserDataValue {
        guard levels > 0 else {
            switch self {
            case .array, .object: return Self.truncationPlaceholder
            default: return self
            }
        }
        switch self {
        case .array(let values):
            return .array(values.map { $0.fits(levels: levels - 1) ? $0 : $0.truncated(levels: levels - 1) })
        case .object(let values):
            return .object(values.mapValues { $0.fits(levels: levels - 1) ? $0 : $0.truncated(levels: levels - 1) })
        default:
            return self
        }
    }
}
