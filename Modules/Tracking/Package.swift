// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tracking",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Tracking", targets: ["Tracking"]),
        .library(name: "TrackingTestKit", targets: ["TrackingTestKit"]),
        .library(name: "DataQuality", targets: ["DataQuality"]),
    ],
    targets: [
        // MARK: Tracking: the core, zero dependencies
        .target(
            name: "Tracking",
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        // MARK: TrackingTestKit: recording plugin, expectations, journey snapshots
        .target(
            name: "TrackingTestKit",
            dependencies: ["Tracking"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        // MARK: DataQuality: contract, hydration, identity and sessions, duplicates, privacy
        .target(
            name: "DataQuality",
            dependencies: ["Tracking"],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
