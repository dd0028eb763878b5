// swift-tools-version: 6.1
// The example package docs/testing.md's "Keeping cassettes healthy" runs: a small client for a shop's
// API, tested against recorded cassettes with TonearmTesting. scripts/cassette-health-demo.sh copies it,
// deletes a test, re-records one with a changed price, and shows tonearm coverage, prune and diff.
import PackageDescription

let package = Package(
    name: "ShopApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // This checkout; a project of your own names Tonearm's URL instead (README, "Adding it to your package").
        .package(name: "Tonearm", path: "../.."),
    ],
    targets: [
        .target(name: "ShopClient"),
        .testTarget(
            name: "ShopClientTests",
            dependencies: ["ShopClient", .product(name: "TonearmTesting", package: "Tonearm")],
            exclude: ["__Cassettes__"]
        ),
    ]
)
