// swift-tools-version: 6.0
import PackageDescription

/// A feature package that lives outside the workspace and depends on Tracking by path:
/// proof that a team can add its own events without touching anything shared.
let package = Package(
    name: "ExternalFeature",
    platforms: [.macOS(.v12)],
    dependencies: [
        .package(path: "../../Modules/Tracking"),
    ],
    targets: [
        .executableTarget(
            name: "ExternalFeature",
            dependencies: [
                .product(name: "Tracking", package: "Tracking"),
                .product(name: "TrackingTestKit", package: "Tracking"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
