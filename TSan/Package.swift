// swift-tools-version: 6.1
// The core's concurrency tests, built with ThreadSanitizer: a package of its own so that building it
// builds the core and these tests only, never SwiftNIO, BoringSSL or AsyncHTTPClient (which the root
// package's one test bundle links). The test files are symbolic links to the root package's, so each
// test is written once and runs in both `swift test` and scripts/tsan.sh, which builds and runs this.
import PackageDescription

let package = Package(
    name: "TonearmTSan",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its directory's name.
        .package(name: "Tonearm", path: ".."),
    ],
    targets: [
        // The one piece of the root package's test support these tests use (a link to its file).
        .target(name: "TonearmTestSupport", path: "Sources/TonearmTestSupport"),
        .testTarget(
            name: "LockFreeTests",
            dependencies: [.product(name: "Tonearm", package: "Tonearm"), "TonearmTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
