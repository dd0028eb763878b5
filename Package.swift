// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tonearm",
    products: [
        // The embeddable matching core: depends on nothing but the system libxxhash.
        .library(name: "Tonearm", targets: ["Tonearm"]),
        .executable(name: "tonearm", targets: ["TonearmCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]
        ),
        .target(
            name: "Tonearm",
            dependencies: ["CXXHash"]
        ),
        .executableTarget(
            name: "TonearmCLI",
            dependencies: [
                "Tonearm",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TonearmTests",
            dependencies: [
                "Tonearm",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
