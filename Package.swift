// swift-tools-version: 6.0
import PackageDescription

// The repository's root package: what an app adopts by URL, and the workspace that composes
// everything (the demo, the bench, every test target).
//
// SwiftPM reads a repository through this manifest alone, and a package resolved by version
// cannot depend on a local path package. So the root declares the library targets itself, on
// the sources of the packages under `Modules/` (`path: "Modules/Tracking/Sources/Tracking"`),
// and depends on no local package: `Modules/Tracking`, `Modules/Dispatcher`,
// `Modules/Analytics`, each feature package and `Benchmarks/` keep their own `Package.swift`
// for use on their own (`cd Modules/Basket && swift build`), with the same targets and
// dependencies as here. A target name is unique across a package graph, which is why the root
// cannot both declare `Tracking` and depend on a package that does.

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// A library target on the sources of `Modules/<package>/Sources/<name>`, as that package declares it.
func module(_ name: String, in package: String, dependencies: [Target.Dependency] = [], privacyManifest: Bool = false) -> Target {
    .target(
        name: name,
        dependencies: dependencies,
        path: "Modules/\(package)/Sources/\(name)",
        resources: privacyManifest ? [.copy("PrivacyInfo.xcprivacy")] : nil,
        swiftSettings: strictSettings
    )
}

/// A target on the sources of `Benchmarks/Sources/<name>`, as the `Benchmarks` package declares it.
func bench(_ name: String, dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, path: "Benchmarks/Sources/\(name)", swiftSettings: strictSettings)
}

/// The feature packages under `Modules/`. A new feature adds its name here, and nothing else
/// in this file: its library target (depending on `Tracking` alone, as its own package does)
/// and its tests come from the two functions below, and the demo depends on it.
let features = ["Basket", "Onboarding", "Wishlist"]

/// A feature's code, in `Modules/<Feature>/Sources/<Feature>`: an example inside this
/// repository, not a product an app adopts (an app declares its own features on `Tracking`).
func feature(_ feature: String) -> Target {
    module(feature, in: feature, dependencies: ["Tracking"])
}

/// A feature's own tests, in `Modules/<Feature>/Tests/<Feature>Tests`: `swift test` inside the
/// feature runs them through the feature's package, and `swift test` here runs them too.
func featureTests(_ feature: String) -> Target {
    .testTarget(
        name: "\(feature)Tests",
        dependencies: [.target(name: feature), "Tracking", "TrackingTestKit"],
        path: "Modules/\(feature)/Tests/\(feature)Tests",
        exclude: ["__Snapshots__"],
        swiftSettings: strictSettings
    )
}

let package = Package(
    name: "TrackingWorkspace",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        // What an app adopts: the runtime, the core its features declare events with, and the test kits.
        .library(name: "Analytics", targets: ["Analytics"]),
        .library(name: "Tracking", targets: ["Tracking"]),
        .library(name: "TrackingTestKit", targets: ["TrackingTestKit"]),
        .library(name: "DataQuality", targets: ["DataQuality"]),
        .library(name: "Dispatcher", targets: ["Dispatcher"]),
        .library(name: "DispatcherTestKit", targets: ["DispatcherTestKit"]),
        .executable(name: "demo", targets: ["demo"]),
    ],
    targets: [
        // MARK: Modules/Tracking: the core (no dependencies), its test kit, the data-quality stages
        module("Tracking", in: "Tracking", privacyManifest: true),
        module("TrackingTestKit", in: "Tracking", dependencies: ["Tracking"]),
        module("DataQuality", in: "Tracking", dependencies: ["Tracking"], privacyManifest: true),

        // MARK: Modules/Dispatcher: the system libraries, persistence, batching, delivery, its test kit
        .systemLibrary(name: "CSQLite", path: "Modules/Dispatcher/Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        .systemLibrary(name: "CCurl", path: "Modules/Dispatcher/Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", path: "Modules/Dispatcher/Sources/CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        module("Dispatcher", in: "Dispatcher", dependencies: [
            "CSQLite", "CZlib", .target(name: "CCurl", condition: .when(platforms: [.linux])), "Tracking",
        ], privacyManifest: true),
        module("DispatcherTestKit", in: "Dispatcher", dependencies: ["Dispatcher", "CZlib", "Tracking"]),

        // MARK: Modules/Analytics: the runtime an app starts with one line
        module("Analytics", in: "Analytics", dependencies: ["Tracking", "DataQuality", "Dispatcher"], privacyManifest: true),

        // MARK: demo: the command-line program that composes everything
        .executableTarget(
            name: "demo",
            dependencies: ["Tracking", "DataQuality", "Dispatcher", "Analytics", "Benchmarks", "Workload"]
                + features.map { .target(name: $0) },
            path: "Demo",
            swiftSettings: strictSettings
        ),

        // MARK: Benchmarks/: the bench, the workload, the loopback collector, the plain-SQLite reference
        bench("Benchmarks", dependencies: ["Tracking", "Workload", "LoopbackHTTP", "BenchReference", "DataQuality",
                                           "Dispatcher", "Analytics", "Onboarding"]),
        bench("Workload", dependencies: ["Tracking", "Dispatcher", "Analytics", "Basket", "Onboarding", "Wishlist"]),
        bench("LoopbackHTTP", dependencies: ["Tracking", "DispatcherTestKit"]),
        .systemLibrary(name: "CSQLiteReference", path: "Benchmarks/Sources/CSQLiteReference",
                       providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        bench("BenchReference", dependencies: ["CSQLiteReference"]),
        .testTarget(
            name: "BenchmarksTests",
            dependencies: ["Benchmarks", "Tracking", "TrackingTestKit", "Dispatcher"],
            path: "Benchmarks/Tests/BenchmarksTests",
            swiftSettings: strictSettings
        ),

        // MARK: Tracking core
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "TrackingTestKit", "TestSupport"], swiftSettings: strictSettings),

        .testTarget(name: "DataQualityTests", dependencies: ["Tracking", "TrackingTestKit", "DataQuality", "TestSupport"], swiftSettings: strictSettings),

        // MARK: Dispatcher
        .target(name: "TestSupport", dependencies: ["Tracking", "LoopbackHTTP"], path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "StoreTests",
            dependencies: ["Dispatcher", "DispatcherTestKit", "Tracking", "TrackingTestKit", "TestSupport", "BenchReference"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: ["Dispatcher", "DispatcherTestKit", "Tracking", "TrackingTestKit", "DataQuality", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["Dispatcher", "DispatcherTestKit", "Tracking", "TrackingTestKit", "DataQuality", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DispatcherTests",
            dependencies: ["Dispatcher", "DispatcherTestKit", "Tracking", "TrackingTestKit", "DataQuality", "TestSupport"],
            swiftSettings: strictSettings
        ),
        // An app's view of DispatcherTestKit: public API only, no `@testable`.
        .testTarget(
            name: "DispatcherTestKitTests",
            dependencies: ["Dispatcher", "DispatcherTestKit", "Tracking"],
            swiftSettings: strictSettings
        ),

        // MARK: Analytics runtime
        .testTarget(
            name: "AnalyticsTests",
            dependencies: ["Analytics", "Dispatcher", "Tracking", "TrackingTestKit", "DataQuality", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ] + features.map(feature) + features.map(featureTests),
    swiftLanguageModes: [.v6]
)
