// swift-tools-version:6.1
import PackageDescription

/// Sluice's benchmarks, kept out of the main package so its build stays light: one executable,
/// `sluice-bench`, that measures Sluice and its peers (AsyncHTTPClient, URLSession) the same way.
/// `scripts/bench` builds it in release mode, starts the servers and prints the table.
let package = Package(
    name: "SluiceBenchmarks",
    products: [
        .executable(name: "sluice-bench", targets: ["SluiceBench"]),
    ],
    dependencies: [
        .package(name: "Sluice", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        .executableTarget(
            name: "SluiceBench",
            dependencies: [
                .product(name: "Sluice", package: "Sluice"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
    ]
)
