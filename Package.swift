// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tonearm",
    // Mutex and Atomic (Synchronization) set the floor on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // The embeddable matching core: depends on nothing but the system libxxhash.
        .library(name: "Tonearm", targets: ["Tonearm"]),
        // Cassette formats (native, HAR, VCR, Vinyl, DVR, WireMock, rule files, stub folders) and recording to disk.
        .library(name: "TonearmCassettes", targets: ["TonearmCassettes"]),
        // URLSession interception: record, replay and stub through a URLProtocol.
        .library(name: "TonearmURLSession", targets: ["TonearmURLSession"]),
        // Swift Testing traits and XCTest helpers that scope cassettes and stubs to a test.
        .library(name: "TonearmTesting", targets: ["TonearmTesting"]),
        // The `.server` trait and `withTonearmServer`: TonearmTesting plus the local server, so SwiftNIO and
        // AsyncHTTPClient. Kept apart so that a package stubbing URLSession builds none of that.
        .library(name: "TonearmServerTesting", targets: ["TonearmServerTesting"]),
        // Seeded REST traffic for benchmarking matchers, shared by `tonearm bench` and Benchmarks/.
        .library(name: "TonearmWorkloads", targets: ["TonearmWorkloads"]),
        // A local record/replay/stub HTTP server for clients in any process or language (SwiftNIO).
        .library(name: "TonearmServer", targets: ["TonearmServer"]),
        // WireMock's admin API, stub mappings and response templating, installed in a TonearmServer as an
        // extension of its request path (`tonearm serve` installs it); a server without it builds none of it.
        .library(name: "TonearmWireMock", targets: ["TonearmWireMock"]),
        .executable(name: "tonearm", targets: ["TonearmCLI"]),
        // `swift package tonearm lint|explain|key|coverage|diff …` on a package's cassettes (docs/testing.md,
        // "The SwiftPM plugin"); `swift package tonearm-write convert|prune --write …` for the subcommands
        // that write, the one that asks for permission to write to the package directory.
        .plugin(name: "TonearmPlugin", targets: ["TonearmPlugin"]),
        .plugin(name: "TonearmWritePlugin", targets: ["TonearmWritePlugin"]),
        // swift-http-types bridge: `Request`/`Response` to and from `HTTPRequest`/`HTTPResponse`/`HTTPFields`.
        .library(name: "TonearmHTTPTypes", targets: ["TonearmHTTPTypes"]),
        // AsyncHTTPClient: record, replay and stub `HTTPClient` traffic through `TonearmHTTPClient`.
        .library(name: "TonearmAsyncHTTPClient", targets: ["TonearmAsyncHTTPClient"]),
        // swift-openapi-runtime: a `ClientTransport` that records, replays and stubs any other transport.
        .library(name: "TonearmOpenAPI", targets: ["TonearmOpenAPI"]),
    ],
    traits: [
        // Hash with the portable Swift XXH3 on Linux too (Apple platforms always do): CI tests that path.
        .trait(name: "PortableXXH3", description: "Use the Swift XXH3-64 instead of the system libxxhash."),
        // Link the system libxxhash on Linux. On by default; `--traits PortableXXH3` alone leaves it out, so
        // the portable build (and the binary scripts/package.sh ships) does not load a library it never calls.
        .trait(name: "SystemXXH3", description: "Link the system libxxhash on Linux (default)."),
        // `tonearm bench --memory --through-urlsession` links FoundationNetworking, and through it libcurl,
        // which a plain Debian/Ubuntu lacks: scripts/package.sh builds the shipped binary without it.
        .trait(name: "URLSessionBench", description: "tonearm bench --through-urlsession (links FoundationNetworking and libcurl)."),
        .default(enabledTraits: ["SystemXXH3", "URLSessionBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Only the TonearmServer product (and the CLI) build these; the core and the URLSession bridge do not.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // TLS for `tonearm serve` (the HTTPS listener, CONNECT interception, its local CA); AsyncHTTPClient
        // already resolves them (the crypto range is the one swift-certificates accepts).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Only the bridge products (TonearmHTTPTypes, TonearmOpenAPI) and their tests build these.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        // `swift package generate-documentation` (the DocC catalogs; .ci/run builds them with warnings as
        // errors). A plugin: packages that depend on Tonearm resolve it but never build it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]
        ),
        .target(
            name: "Tonearm",
            // libxxhash where the system has it (Linux); Apple platforms use the bit-exact Swift XXH3.
            dependencies: [.target(name: "CXXHash", condition: .when(platforms: [.linux], traits: ["SystemXXH3"]))],
            swiftSettings: [.define("TONEARM_PORTABLE_XXH3", .when(traits: ["PortableXXH3"]))]
        ),
        // zlib, to hand URLSession clients decoded bodies from gzip/deflate recordings.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "TonearmCassettes",
            dependencies: [
                "Tonearm",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "TonearmURLSession",
            dependencies: ["Tonearm", "TonearmCassettes", "TonearmReplay"]
        ),
        .target(
            name: "TonearmTesting",
            dependencies: ["Tonearm", "TonearmCassettes", "TonearmURLSession"]
        ),
        .target(
            name: "TonearmServerTesting",
            dependencies: ["TonearmTesting", "TonearmServer"]
        ),
        .target(
            name: "TonearmServer",
            dependencies: [
                "Tonearm",
                "TonearmCassettes",
                "TonearmReplay",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The inspector page's source files, embedded as InspectorAssets.swift by scripts/embed-inspector-assets.py.
            exclude: ["Inspector/Web"]
        ),
        // WireMock's admin API, its stub mappings' stages and the Handlebars subset its templates use: a
        // server extension (`ServerExtension`), so the server knows nothing of it.
        .target(
            name: "TonearmWireMock",
            dependencies: [
                "Tonearm",
                "TonearmCassettes",
                "TonearmReplay",
                "TonearmServer",
            ]
        ),
        .target(
            name: "TonearmWorkloads",
            dependencies: ["Tonearm"]
        ),
        // The cassette subcommands (lint, convert, explain, key, coverage, prune, diff): one copy of their
        // code, for the `tonearm` executable and for the plugins' tool.
        .target(
            name: "TonearmCommands",
            dependencies: ["Tonearm", "TonearmCassettes", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The plugins' tool: the cassette subcommands without the server, so that a package running
        // `swift package tonearm` builds neither SwiftNIO nor TLS nor the HTTP client.
        .executableTarget(
            name: "TonearmCassetteTool",
            dependencies: ["TonearmCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Two verbs because SwiftPM asks for a plugin's permissions whenever it runs: reading needs none.
        .plugin(
            name: "TonearmPlugin",
            capability: .command(
                intent: .custom(verb: "tonearm", description: "Lint, explain, key, coverage and diff on the package's cassettes (reads only)")
            ),
            dependencies: ["TonearmCassetteTool"]
        ),
        .plugin(
            name: "TonearmWritePlugin",
            capability: .command(
                intent: .custom(verb: "tonearm-write", description: "Convert and prune --write on the package's cassettes (writes files)"),
                permissions: [.writeToPackageDirectory(reason: "tonearm convert writes its output, and prune --write edits and deletes cassettes")]
            ),
            dependencies: ["TonearmCassetteTool"]
        ),
        .executableTarget(
            name: "TonearmCLI",
            dependencies: [
                "Tonearm",
                "TonearmCassettes",
                "TonearmCommands",
                "TonearmWorkloads",
                "TonearmServer",
                "TonearmWireMock",
                "TonearmReplay",
                .target(name: "TonearmURLSession", condition: .when(traits: ["URLSessionBench"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets (the conformance corpus locator); not a product.
        .target(
            name: "TonearmTestSupport",
            path: "Tests/TonearmTestSupport"
        ),
        // A `Request` like Tonearm's and an `HTTPField` like swift-http-types', imported beside Tonearm by a test.
        .target(
            name: "NameClashSupport",
            path: "Tests/NameClashSupport"
        ),
        .testTarget(
            name: "TonearmTests",
            dependencies: [
                "Tonearm",
                "TonearmTestSupport",
                "NameClashSupport",
                "TonearmWorkloads",
                // Only to compare the portable XXH3 against libxxhash, where the library exists.
                .target(name: "CXXHash", condition: .when(platforms: [.linux])),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: [.define("TONEARM_PORTABLE_XXH3", .when(traits: ["PortableXXH3"]))]
        ),
        // Runs the built `tonearm` executable end to end; depending on it makes SwiftPM build it first.
        .testTarget(
            name: "TonearmCLITests",
            dependencies: ["TonearmCLI", "TonearmTestSupport"]
        ),
        .testTarget(
            name: "TonearmURLSessionTests",
            dependencies: [
                "Tonearm", "TonearmCassettes", "TonearmURLSession", "TonearmTesting", "TonearmTestSupport",
                // The app the team-format tests launch.
                "TonearmStubbedApp",
            ],
            // Recorded cassettes live beside the tests that use them; they are data, not sources.
            exclude: ["__Cassettes__"]
        ),
        // "The app" launched by the server's two-process test, its base URL from the environment.
        .executableTarget(
            name: "TonearmServerTestApp",
            path: "Tests/TonearmServerTestApp"
        ),
        // The server's request path on an EmbeddedChannel, run under callgrind and heaptrack by
        // scripts/server-instructions.sh; a target here rather than a scratch package (as the core's
        // instruction scripts use) so that it reuses this checkout's release build of NIO and the server.
        .executableTarget(
            name: "RequestPathDriver",
            dependencies: [
                "TonearmServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Tests/RequestPathDriver"
        ),
        // scripts/bench-websockets.sh's peer and load: a plain NIO WebSocket echo server, and a NIO client
        // that keeps connections each sending a message and awaiting its answer, counting messages a second.
        .executableTarget(
            name: "StreamBench",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Tests/StreamBench"
        ),
        // What the server's and WireMock's tests share: quiet configurations (WireMock installed, as
        // `tonearm serve` has it), a test client, upstreams.
        .target(
            name: "TonearmServerTestSupport",
            dependencies: [
                "Tonearm", "TonearmCassettes", "TonearmServer", "TonearmWireMock", "TonearmTestSupport", "TonearmURLSession",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Tests/TonearmServerTestSupport"
        ),
        .testTarget(
            name: "TonearmWireMockTests",
            dependencies: [
                "Tonearm", "TonearmCassettes", "TonearmReplay", "TonearmServer", "TonearmWireMock",
                "TonearmTestSupport", "TonearmServerTestSupport",
                // `tonearm serve`, which some tests launch.
                "TonearmCLI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TonearmServerTests",
            dependencies: [
                "Tonearm", "TonearmCassettes", "TonearmURLSession", "TonearmServer", "TonearmTesting", "TonearmServerTesting",
                "TonearmTestSupport", "TonearmServerTestSupport",
                // The server as `tonearm serve` runs it: several tests reach the control plane through
                // WireMock's admin API.
                "TonearmWireMock",
                // Executables the tests launch: `tonearm serve` and the test app.
                "TonearmCLI", "TonearmServerTestApp",
                "TonearmWorkloads",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["__Cassettes__", "Reports/__Cassettes__", "Python"]
        ),
        .testTarget(
            name: "TonearmCassettesTests",
            dependencies: [
                "Tonearm",
                "TonearmCassettes",
                "TonearmTestSupport",
                "TonearmWorkloads",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // The vcrpy recording script the tests run with Python.
            exclude: ["Python"]
        ),
        // The transport-independent half of a session (record modes, the record/replay decision, misses),
        // shared by the URLSession, AsyncHTTPClient and OpenAPI bridges; Foundation but no networking.
        .target(
            name: "TonearmReplay",
            dependencies: ["Tonearm", "TonearmCassettes", "CZlib"]
        ),
        .target(
            name: "TonearmHTTPTypes",
            dependencies: ["Tonearm", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .target(
            name: "TonearmAsyncHTTPClient",
            dependencies: [
                "Tonearm", "TonearmReplay",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "TonearmOpenAPI",
            dependencies: [
                "Tonearm", "TonearmReplay", "TonearmHTTPTypes",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // The three server-side bridges end to end against the local test server. `Generated/` is the
        // client swift-openapi-generator produced from `openapi.yaml` (see its README for regenerating).
        .testTarget(
            name: "TonearmBridgesTests",
            dependencies: [
                "Tonearm", "TonearmCassettes", "TonearmReplay", "TonearmHTTPTypes", "TonearmAsyncHTTPClient",
                "TonearmOpenAPI", "TonearmTesting", "TonearmURLSession", "TonearmTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            exclude: ["__Cassettes__", "Generated/README.md", "Generated/openapi.yaml", "Generated/openapi-generator-config.yaml"]
        ),
        // "The app" launched by the team-format two-process tests: installFromEnvironment(), then its requests.
        .executableTarget(
            name: "TonearmStubbedApp",
            dependencies: ["TonearmURLSession"],
            path: "Tests/TonearmStubbedApp"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI sets TONEARM_WARNINGS_AS_ERRORS=1 for its one `swift test`, so every target of this package (sources
// and tests) fails on a warning without a second full build in another scratch path. Users never set it:
// unsafe flags are refused in a dependency, so the variable must stay unset when another package (the
// Benchmarks and Fuzz packages included) builds this one.
if Context.environment["TONEARM_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system && target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}
