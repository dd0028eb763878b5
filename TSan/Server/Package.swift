// swift-tools-version: 6.1
// The server's lock-free cache of encoded answers under ThreadSanitizer: a package of its own, beside the
// core's (TSan/), because the server links SwiftNIO and its TLS and HTTP client stack, which the core's
// TSan build leaves out to stay fast. The test file is a symbolic link to the root package's, so it runs
// in `swift test` too; scripts/tsan.sh builds and runs this after the core's. docs/benchmarks.md ("CI: the
// lock-free containers under ThreadSanitizer") says what it covers, what it leaves out and what it costs.
import PackageDescription

let package = Package(
    name: "TonearmTSanServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its directory's name.
        .package(name: "Tonearm", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // The pieces of the root package's test support these tests use (links to its files).
        .target(name: "TonearmTestSupport", path: "Sources/TonearmTestSupport"),
        .testTarget(
            name: "ServerConcurrencyTests",
            dependencies: [
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmServer", package: "Tonearm"),
                .product(name: "NIOCore", package: "swift-nio"),
                "TonearmTestSupport",
            ],
            // Leaves out the tests of what a `Mutex` guards: TSan cannot see a contended one hand over.
            swiftSettings: [.define("TONEARM_THREAD_SANITIZER")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
