import Tracking

/// A reference for the send figures, timed in the same loop as the sends it is set beside: the
/// event's userData copied member by member into a new dictionary (an allocation and a SipHash
/// of each key, each value retained), then the copy hashed. It is plain Swift that this library
/// never changes, made of the same kinds of work as a send (hashing, allocating, reference
/// counting), so it slows down with the machine as sends do: a full-stack send costs about two
/// and a half of it.
///
/// The two-core hosts the bench runs on change speed between runs and within one, by up to
/// two times (a neighbour on the same core): `send_stack_vs_reference`, the median of each
/// send's cost over the reference's just before it, carries from one host and moment to another
/// where nanoseconds do not.
struct SendReference {
    /// What the work came to, kept so that the optimiser cannot drop it.
    private(set) var sink = 0

    /// Does the reference work once on `userData`.
    @inline(never)
    mutating func run(_ userData: UserData) {
        var copy = UserData(minimumCapacity: userData.count)
        for (key, value) in userData { copy[key] = value }
        var hasher = Hasher()
        copy.hash(into: &hasher)
        sink &+= hasher.finalize()
    }
}
