/// Why an ``InspectorServer`` could not start.
public enum InspectorError: Error, Equatable, CustomStringConvertible {
    /// Another program already listens on the port of 127.0.0.1.
    case portInUse(port: UInt16)
    /// The system refused a socket call (the call's name, the port asked for, and `errno`).
    case cannotListen(call: String, port: UInt16, errno: Int32)

    /// One sentence saying what failed and what to do.
    public var description: String {
        switch self {
        case .portInUse(let port):
            "inspector: port \(port) on 127.0.0.1 is in use; choose another port, or 0 for any free one"
        case .cannotListen(let call, let port, let code):
            "inspector: cannot listen on 127.0.0.1:\(port): \(call) failed with errno \(code)"
        }
    }
}
