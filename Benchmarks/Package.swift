// swift-tools-version: 6.1
// Tonearm's benchmarks: a package of their own (like swift-nio's), so users of the library never fetch
// the benchmark tool. Run them from this directory with `swift package benchmark`; docs/benchmarks.md
// has the commands and the latest results.
import PackageDescription

let benchmarkTool: [Target.Dependency] = [.product(name: "Benchmark", package: "benchmark")]
let benchmarkPlugin: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "TonearmBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named explicitly: a path dependency's identity is otherwise its directory's name, which is
        // whatever the checkout is called.
        .package(name: "Tonearm", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The same xxHash twice: compiled into the caller (as the core's CXXHash does) and called in the
        // shared library, to keep measuring the choice the core made.
        .systemLibrary(
            name: "XXHashInline", path: "Sources/XXHashInline", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(
            name: "XXHashLibrary", path: "Sources/XXHashLibrary", pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]),
        // What the benchmark targets share.
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "KeyBenchmarks",
            dependencies: benchmarkTool + [
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmWorkloads", package: "Tonearm"),
            ],
            path: "Benchmarks/KeyBenchmarks",
            plugins: benchmarkPlugin),
        .executableTarget(
            name: "HashBenchmarks",
            dependencies: benchmarkTool + ["XXHashInline", "XXHashLibrary", .product(name: "Tonearm", package: "Tonearm")],
            path: "Benchmarks/HashBenchmarks",
            plugins: benchmarkPlugin),
        .executableTarget(
            name: "MatchBenchmarks",
            dependencies: benchmarkTool + [
                "BenchmarkSupport",
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmWorkloads", package: "Tonearm"),
            ],
            path: "Benchmarks/MatchBenchmarks",
            plugins: benchmarkPlugin),
        .executableTarget(
            name: "RuleBenchmarks",
            dependencies: benchmarkTool + [
                "BenchmarkSupport",
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmWorkloads", package: "Tonearm"),
            ],
            path: "Benchmarks/RuleBenchmarks",
            plugins: benchmarkPlugin),
        .executableTarget(
            name: "CassetteBenchmarks",
            dependencies: benchmarkTool + [
                .product(name: "Tonearm", package: "Tonearm"),
                .product(name: "TonearmCassettes", package: "Tonearm"),
                .product(name: "TonearmWorkloads", package: "Tonearm"),
            ],
            path: "Benchmarks/CassetteBenchmarks",
            plugins: benchmarkPlugin),
    ],
    swiftLanguageModes: [.v6]
)
