/// The monitor could not read what it was pointed at.
enum MonitorError: Error, CustomStringConvertible {
    case noStore(String)
    var description: String {
        switch self {
        case .noStore(let path): "no store at \(path)"
        }
    }
}
