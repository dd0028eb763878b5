import Foundation
import Testing
import TonearmTestSupport

/// What each product makes a dependent package build, read from the package graph SwiftPM itself
/// resolves (`swift package describe`), so a dependency added to a light product fails here rather
/// than in a user's first clean build: a package that adds `TonearmTesting` to stub URLSession must not
/// compile SwiftNIO, BoringSSL or AsyncHTTPClient.
@Suite("What each product builds")
struct ProductDependencyTests {
    /// Per product, the other packages' products its targets reach.
    static func externalProducts() async throws -> [String: Set<String>] {
        try await closures().external
    }

    /// Per product, the targets of this package it builds, and the other packages' products they reach.
    static func closures() async throws -> (targets: [String: Set<String>], external: [String: Set<String>]) {
        // The running `swift test` holds the build folder's lock; describing reads only the manifest.
        let run = try await ProcessRun.run(
            "/usr/bin/env", ["swift", "package", "--ignore-lock", "describe", "--type", "json"], environment: nil,
            currentDirectory: packageRoot)
        try #require(run.status == 0, "swift package describe failed: \(run.errors)")
        let data = Data(run.outputBytes)
        let description = try JSONDecoder().decode(PackageDescription.self, from: data)
        let targets = Dictionary(uniqueKeysWithValues: description.targets.map { ($0.name, $0) })
        var closures: (targets: [String: Set<String>], external: [String: Set<String>]) = ([:], [:])
        for product in description.products {
            var seen = Set<String>(), external = Set<String>()
            var pending = product.targets
            while let name = pending.popLast() {
                guard seen.insert(name).inserted, let target = targets[name] else { continue }
                pending += target.targetDependencies ?? []
                external.formUnion(target.productDependencies ?? [])
            }
            closures.targets[product.name] = seen
            closures.external[product.name] = external
        }
        return closures
    }

    private struct PackageDescription: Decodable {
        struct Product: Decodable {
            var name: String
            var targets: [String]
        }
        struct Target: Decodable {
            var name: String
            var targetDependencies: [String]?
            var productDependencies: [String]?
            enum CodingKeys: String, CodingKey {
                case name
                case targetDependencies = "target_dependencies"
                case productDependencies = "product_dependencies"
            }
        }
        var products: [Product]
        var targets: [Target]
    }

    static let serverStack: Set<String> = ["NIOCore", "NIOPosix", "NIOHTTP1", "NIOSSL", "AsyncHTTPClient", "X509", "Crypto", "SwiftASN1"]

    @Test("the core builds nothing else; cassettes, URLSession and TonearmTesting add only Yams; no light product reaches SwiftNIO or AsyncHTTPClient")
    func lightProductsStayLight() async throws {
        let external = try await Self.externalProducts()
        #expect(external["Tonearm"] == [])
        #expect(external["TonearmWorkloads"] == [])
        for product in ["TonearmCassettes", "TonearmURLSession", "TonearmTesting"] {
            #expect(external[product] == ["Yams"], "\(product) reaches \(external[product] ?? [])")
        }
        #expect(external["TonearmHTTPTypes"] == ["HTTPTypes"])
        for (product, reached) in external where ["Tonearm", "TonearmCassettes", "TonearmURLSession", "TonearmTesting", "TonearmHTTPTypes", "TonearmOpenAPI"].contains(product) {
            #expect(reached.isDisjoint(with: Self.serverStack), "\(product) reaches \(reached.intersection(Self.serverStack))")
        }
    }

    @Test("the server's test helpers are their own product, and it is the one that brings the server")
    func serverTestingBringsTheServer() async throws {
        let external = try await Self.externalProducts()
        let serverTesting = try #require(external["TonearmServerTesting"])
        #expect(serverTesting.isSuperset(of: ["NIOCore", "NIOPosix", "AsyncHTTPClient"]))
    }

    /// `RequestPathDriver` is the server's request path under callgrind (scripts/server-instructions.sh).
    @Test("TLS (swift-nio-ssl, swift-certificates, swift-crypto) comes with the server and its tool only")
    func tlsStaysWithTheServer() async throws {
        let external = try await Self.externalProducts()
        #expect(try #require(external["TonearmServer"]).isSuperset(of: ["NIOSSL", "X509", "Crypto", "SwiftASN1"]))
        for (product, reached) in external where !["TonearmServer", "TonearmServerTesting", "TonearmWireMock", "tonearm", "TonearmAsyncHTTPClient", "RequestPathDriver"].contains(product) {
            #expect(reached.isDisjoint(with: ["X509", "Crypto", "SwiftASN1"]), "\(product) reaches \(reached.intersection(["X509", "Crypto", "SwiftASN1"]))")
        }
    }

    @Test("WireMock is a product of its own on top of the server: the server, its test helpers and the request-path driver build none of it; tonearm does")
    func wireMockStaysOutOfTheServer() async throws {
        let targets = try await Self.closures().targets
        for product in ["TonearmServer", "TonearmServerTesting", "RequestPathDriver"] {
            let built = try #require(targets[product], "no product \(product)")
            #expect(!built.contains("TonearmWireMock"), "\(product) builds TonearmWireMock")
        }
        #expect(try #require(targets["TonearmWireMock"]).isSuperset(of: ["TonearmWireMock", "TonearmServer"]))
        #expect(try #require(targets["tonearm"]).contains("TonearmWireMock"))
    }
}
