// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .executable(name: "sluice", targets: ["SluiceCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .target(
            name: "Sluice",
            dependencies: [
                "CCurl",
                "COpenSSL",
                "CYAML",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "SluiceCLI",
            dependencies: [
                "Sluice",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/sluice"
        ),
        .testTarget(
            name: "SluiceTests",
            dependencies: ["Sluice", "CYAML"]
        ),
        .testTarget(
            name: "SluiceIntegrationTests",
            dependencies: ["Sluice"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
