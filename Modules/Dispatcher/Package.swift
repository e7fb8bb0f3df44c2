// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Dispatcher",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Dispatcher", targets: ["Dispatcher"]),
        .library(name: "DispatcherTestKit", targets: ["DispatcherTestKit"]),
    ],
    dependencies: [
        .package(path: "../Tracking"),
    ],
    targets: [
        // MARK: CSQLite: the system libsqlite3, reached only from the storage files
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        // MARK: Dispatcher: persistence, batching, delivery
        .target(
            name: "Dispatcher",
            dependencies: ["CSQLite", .product(name: "Tracking", package: "Tracking"), .product(name: "TrackingJSON", package: "Tracking")],
            swiftSettings: strictSettings
        ),
        // MARK: DispatcherTestKit: spy transport for tests
        .target(
            name: "DispatcherTestKit",
            dependencies: ["Dispatcher", .product(name: "Tracking", package: "Tracking")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
