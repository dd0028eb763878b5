// swift-tools-version: 6.1
// Tonearm's fuzz targets: a package of their own so the library's users never build them. Each target is
// a libFuzzer entry point (`LLVMFuzzerTestOneInput`) run by libFuzzer's driver from main.swift, built with
// `-sanitize=fuzzer,address`; scripts/fuzz.sh builds and runs them, docs/limits.md says what they guard.
import PackageDescription

let package = Package(
    name: "TonearmFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its directory's name.
        .package(name: "Tonearm", path: ".."),
        // For FuzzMethodRewriter's EmbeddedChannel and HTTP decoder: the version the root package resolves.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // libFuzzer's driver, declared for Swift; each target's main.swift hands it the test function.
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
        // Bytes → request → canonical form and key.
        .executableTarget(
            name: "FuzzRequestKey",
            dependencies: ["FuzzSupport", .product(name: "Tonearm", package: "Tonearm")]),
        // Bytes → canonical JSON (RFC 8785), which must be a fixed point.
        .executableTarget(
            name: "FuzzJSONCanonicalizer",
            dependencies: ["FuzzSupport", .product(name: "Tonearm", package: "Tonearm")]),
        // Bytes → every cassette format's decoder, and an engine from what loads.
        .executableTarget(
            name: "FuzzImporters",
            dependencies: [
                "FuzzSupport",
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmCassettes", package: "Tonearm"),
            ]),
        // Bytes → rule file (JSON and YAML) → rule set, and bytes as a pattern on its own.
        .executableTarget(
            name: "FuzzRuleFiles",
            dependencies: [
                "FuzzSupport",
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmCassettes", package: "Tonearm"),
            ]),
        // Bytes as a connection's reads → the server's method rewriter → NIO's HTTP decoder; the rewriter is
        // internal, reached by `@testable import` (scripts/fuzz.sh builds with -enable-testing).
        .executableTarget(
            name: "FuzzMethodRewriter",
            dependencies: [
                "FuzzSupport",
                .product(name: "TonearmServer", package: "Tonearm"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
