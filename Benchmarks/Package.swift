// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let tracking = Target.Dependency.product(name: "Tracking", package: "Tracking")

/// The benchmark the demo runs as `demo bench`, with what it measures against: a plain-SQLite
/// reference and a loopback collector. The workload and the collector are shared with the demo
/// and the workspace's tests, which depend on this package by path.
let package = Package(
    name: "Benchmarks",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Benchmarks", targets: ["Benchmarks"]),
        .library(name: "Workload", targets: ["Workload"]),
        .library(name: "LoopbackHTTP", targets: ["LoopbackHTTP"]),
        .library(name: "BenchReference", targets: ["BenchReference"]),
    ],
    dependencies: [
        .package(path: "../Modules/Tracking"),
        .package(path: "../Modules/Dispatcher"),
        .package(path: "../Modules/Analytics"),
        .package(path: "../Modules/Basket"),
        .package(path: "../Modules/Onboarding"),
        .package(path: "../Modules/Wishlist"),
    ],
    targets: [
        // MARK: The bench: its phases, figures and the stage breakdown
        .target(
            name: "Benchmarks",
            dependencies: [
                tracking, "Workload", "LoopbackHTTP", "BenchReference",
                .product(name: "DataQuality", package: "Tracking"),
                .product(name: "Dispatcher", package: "Dispatcher"),
                .product(name: "Analytics", package: "Analytics"),
                .product(name: "Onboarding", package: "Onboarding"),
            ],
            swiftSettings: strictSettings
        ),
        // MARK: The events the bench and `demo generate` send, and the runtime configuration they start
        .target(
            name: "Workload",
            dependencies: [
                tracking,
                .product(name: "Dispatcher", package: "Dispatcher"),
                .product(name: "Analytics", package: "Analytics"),
                .product(name: "Basket", package: "Basket"),
                .product(name: "Onboarding", package: "Onboarding"),
                .product(name: "Wishlist", package: "Wishlist"),
            ],
            swiftSettings: strictSettings
        ),
        // A loopback HTTP collector: the bench delivers to it, the workspace's delivery tests script it.
        // It decodes gzip bodies with DispatcherTestKit's decoder.
        .target(
            name: "LoopbackHTTP",
            dependencies: [tracking, .product(name: "DispatcherTestKit", package: "Dispatcher")],
            swiftSettings: strictSettings
        ),
        // The system libsqlite3 under a module name of its own, for the plain-SQLite reference.
        .systemLibrary(name: "CSQLiteReference", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        // The plain-SQLite reference the bench measures ingest against.
        .target(name: "BenchReference", dependencies: ["CSQLiteReference"], swiftSettings: strictSettings),
        // MARK: its tests: `swift test` here runs them, and so does `swift test` at the root
        .testTarget(
            name: "BenchmarksTests",
            dependencies: ["Benchmarks", tracking, .product(name: "TrackingTestKit", package: "Tracking")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
