// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Basket",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Basket", targets: ["Basket"]),
    ],
    dependencies: [
        .package(path: "../Tracking"),
    ],
    targets: [
        // MARK: Basket: the feature's own events and logic
        .target(
            name: "Basket",
            dependencies: [.product(name: "Tracking", package: "Tracking")],
            swiftSettings: strictSettings
        ),
        // MARK: its tests: `swift test` here runs them, and so does `swift test` at the root
        .testTarget(
            name: "BasketTests",
            dependencies: [
                "Basket",
                .product(name: "Tracking", package: "Tracking"),
                .product(name: "TrackingTestKit", package: "Tracking"),
            ],
            exclude: ["__Snapshots__"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
