// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Wishlist",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Wishlist", targets: ["Wishlist"]),
    ],
    dependencies: [
        .package(path: "../Tracking"),
    ],
    targets: [
        // MARK: Wishlist: the feature's own events and logic
        .target(
            name: "Wishlist",
            dependencies: [.product(name: "Tracking", package: "Tracking")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
