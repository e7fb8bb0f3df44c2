// A wrong label (`name:` for `withName:`): must fail.
import UIKit

@MainActor
func beginBackgroundTime() -> UIBackgroundTaskIdentifier {
    UIApplication.shared.beginBackgroundTask(name: "upload", expirationHandler: {})
}
