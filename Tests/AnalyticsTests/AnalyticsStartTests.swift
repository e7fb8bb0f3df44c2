import Analytics
import Foundation
import Testing
import TestSupport
import Tracking

/// Starting the runtime: one line, and a clear error for a store it cannot use.
@Suite(.runsAlone)
struct AnalyticsStartTests {
    @Test func aStorePathThatNamesAFolderIsRefusedWithAnErrorNamingTheField() throws {
        let configuration = AnalyticsConfiguration(storePath: "events/")
        #expect(throws: ConfigurationError.self) { try Analytics(configuration: configuration) }
    }
}
