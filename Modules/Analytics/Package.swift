// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Analytics",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Analytics", targets: ["Analytics"]),
    ],
    dependencies: [
        .package(path: "../Tracking"),
        .package(path: "../Dispatcher"),
    ],
    targets: [
        // MARK: Analytics: the runtime an app starts with one line
        .target(
            name: "Analytics",
            dependencies: [
                .product(name: "Tracking", package: "Tracking"),
                .product(name: "DataQuality", package: "Tracking"),
                .product(name: "Dispatcher", package: "Dispatcher"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
