// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Basket",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
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
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
