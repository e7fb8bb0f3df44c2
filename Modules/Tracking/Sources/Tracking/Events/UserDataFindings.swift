/// What one walk of a userData, bounded by ``UserDataValue/maximumDepth``, found.
struct UserDataFindings {
    /// Something is nested deeper than the limit and must be cut.
    var tooDeep = false
    /// A NaN or infinite double lies within the limit (so it survives the cut).
    var nonFiniteNumber = false
}
