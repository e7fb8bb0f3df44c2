// A wrong optionality (`NWPath.status` is not optional): must fail.
import Network

func isReachable(_ path: NWPath) -> Bool {
    guard let status = path.status else { return false }
    return status == .satisfied
}
