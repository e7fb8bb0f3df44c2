// A wrong type (the block takes a Bool, not nothing): must fail.
import Foundation
import AppleFoundationExtras

func keepAwake() {
    ProcessInfo.processInfo.performExpiringActivity(withReason: "upload") { () in }
}
