// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Onboarding",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Onboarding", targets: ["Onboarding"]),
    ],
    dependencies: [
        .package(path: "../Tracking"),
    ],
    targets: [
        // MARK: Onboarding: the feature's own events and logic
        .target(
            name: "Onboarding",
            dependencies: [.product(name: "Tracking", package: "Tracking")],
            swiftSettings: strictSettings
        ),
        // MARK: its tests: `swift test` here runs them, and so does `swift test` at the root
        .testTarget(
            name: "OnboardingTests",
            dependencies: [
                "Onboarding",
                .product(name: "Tracking", package: "Tracking"),
                .product(name: "TrackingTestKit", package: "Tracking"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
