/// Why a binary userData, context or flags blob (``BinaryValue``) could not be read.
package struct BinaryValueError: Error, Equatable, CustomStringConvertible {
    /// The offset in the blob where reading failed.
    package let offset: Int

    /// Creates the error for a blob that cannot be read from `offset` on.
    package init(offset: Int) { self.offset = offset }

    /// What went wrong, for diagnostics.
    package var description: String { "malformed binary value at byte \(offset)" }
}
