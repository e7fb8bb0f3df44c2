// The right call: must type-check.
import UIKit

@MainActor
func beginBackgroundTime() -> UIBackgroundTaskIdentifier {
    UIApplication.shared.beginBackgroundTask(withName: "upload", expirationHandler: {})
}
