// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let tracking = Target.Dependency.product(name: "Tracking", package: "Tracking")
let trackingTestKit = Target.Dependency.product(name: "TrackingTestKit", package: "Tracking")
let dataQuality = Target.Dependency.product(name: "DataQuality", package: "Tracking")
let dispatcher = Target.Dependency.product(name: "Dispatcher", package: "Dispatcher")
let dispatcherTestKit = Target.Dependency.product(name: "DispatcherTestKit", package: "Dispatcher")
let analytics = Target.Dependency.product(name: "Analytics", package: "Analytics")
let loopbackHTTP = Target.Dependency.product(name: "LoopbackHTTP", package: "Benchmarks")

/// The feature packages under `Modules/`. A new feature adds its name here, and nothing else
/// in this file: the line below depends on its package, and `featureTests` runs its tests.
let features = ["Basket", "Onboarding", "Wishlist"]

/// A feature's own tests, in `Modules/<Feature>/Tests/<Feature>Tests`: `swift test` inside the
/// feature runs them through the feature's package, and `swift test` here runs them too.
func featureTests(_ feature: String) -> Target {
    .testTarget(
        name: "\(feature)Tests",
        dependencies: [.product(name: feature, package: feature), tracking, trackingTestKit],
        path: "Modules/\(feature)/Tests/\(feature)Tests",
        exclude: ["__Snapshots__"],
        swiftSettings: strictSettings
    )
}

let package = Package(
    name: "TrackingWorkspace",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .executable(name: "demo", targets: ["demo"]),
    ],
    dependencies: [
        .package(path: "Modules/Tracking"),
        .package(path: "Modules/Dispatcher"),
        .package(path: "Modules/Analytics"),
        .package(path: "Benchmarks"),
    ] + features.map { .package(path: "Modules/\($0)") },
    targets: [
        // MARK: demo: the command-line program that composes everything
        .executableTarget(
            name: "demo",
            dependencies: [
                tracking, dataQuality, dispatcher, analytics,
                .product(name: "Benchmarks", package: "Benchmarks"), .product(name: "Workload", package: "Benchmarks"),
            ] + features.map { .product(name: $0, package: $0) },
            path: "Demo",
            swiftSettings: strictSettings
        ),

        // MARK: The bench, in Benchmarks/ (a package of its own): its tests run here too
        .testTarget(
            name: "BenchmarksTests",
            dependencies: [.product(name: "Benchmarks", package: "Benchmarks"), tracking, trackingTestKit, dispatcher],
            path: "Benchmarks/Tests/BenchmarksTests",
            swiftSettings: strictSettings
        ),

        // MARK: Tracking core
        .testTarget(name: "TrackingTests", dependencies: [tracking, trackingTestKit, "TestSupport"], swiftSettings: strictSettings),

        .testTarget(name: "DataQualityTests", dependencies: [tracking, trackingTestKit, dataQuality, "TestSupport"], swiftSettings: strictSettings),

        // MARK: Dispatcher
        .target(name: "TestSupport", dependencies: [tracking, loopbackHTTP], path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "StoreTests",
            dependencies: [dispatcher, dispatcherTestKit, tracking, trackingTestKit, "TestSupport",
                           .product(name: "BenchReference", package: "Benchmarks")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [dispatcher, dispatcherTestKit, tracking, trackingTestKit, dataQuality, "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [dispatcher, dispatcherTestKit, tracking, trackingTestKit, dataQuality, "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DispatcherTests",
            dependencies: [dispatcher, dispatcherTestKit, tracking, trackingTestKit, dataQuality, "TestSupport"],
            swiftSettings: strictSettings
        ),
        // An app's view of DispatcherTestKit: public API only, no `@testable`.
        .testTarget(
            name: "DispatcherTestKitTests",
            dependencies: [dispatcher, dispatcherTestKit, tracking],
            swiftSettings: strictSettings
        ),

        // MARK: Analytics runtime
        .testTarget(
            name: "AnalyticsTests",
            dependencies: [analytics, dispatcher, tracking, trackingTestKit, dataQuality, "TestSupport"],
            swiftSettings: strictSettings
        ),
    ] + features.map(featureTests),
    swiftLanguageModes: [.v6]
)
