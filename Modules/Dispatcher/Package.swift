// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Dispatcher",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
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
        // MARK: CCurl: the system libcurl, for the Linux transport only (Apple builds never need it)
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // MARK: CZlib: the system zlib (every Apple SDK ships libz), for gzip request bodies
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // MARK: Dispatcher: persistence, batching, delivery
        .target(
            name: "Dispatcher",
            dependencies: [
                "CSQLite", "CZlib", .target(name: "CCurl", condition: .when(platforms: [.linux])),
                .product(name: "Tracking", package: "Tracking"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // MARK: DispatcherTestKit: spy transport for tests
        .target(
            name: "DispatcherTestKit",
            dependencies: ["Dispatcher", "CZlib", .product(name: "Tracking", package: "Tracking")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
