extension Dictionary where Key == String, Value == UserDataValue {
    /// Walks this userData once, never deeper than ``UserDataValue/maximumDepth`` and without
    /// allocating: what must be cut or flagged.
    func findings() -> UserDataFindings {
        var findings = UserDataFindings()
        for value in values {
            // Scalars, the usual values, are told apart here, without a call each.
            switch value {
            case .double(let number):
                if !number.isFinite { findings.nonFiniteNumber = true }
            case .array, .object:
                value.inspect(levels: UserDataValue.maximumDepth - 1, into: &findings)
            default:
                break
            }
        }
        return findings
    }

    /// This userData with every array or object deeper than ``UserDataValue/maximumDepth``
    /// replaced by ``UserDataValue/truncationPlaceholder``.
    func truncatedToMaximumDepth() -> UserData {
        let levels = UserDataValue.maximumDepth - 1
        return mapValues { $0.fits(levels: levels) ? $0 : $0.truncated(levels: levels) }
    }
}
