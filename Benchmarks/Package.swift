// swift-tools-version:6.1
import PackageDescription

/// Sluice's benchmarks, kept out of the main package so its build stays light. `sluice-bench`
/// measures Sluice and its peers (AsyncHTTPClient, URLSession) the same way, with nothing
/// instrumenting the process; `sluice-bench-allocs` is the same tool linked with
/// malloc-interposer, which replaces `malloc` in the whole process, for the runs that count
/// allocations and only for those. `scripts/bench` builds both in release mode, starts the
/// servers and prints the table.
let package = Package(
    name: "SluiceBenchmarks",
    products: [
        .executable(name: "sluice-bench", targets: ["SluiceBench"]),
        .executable(name: "sluice-bench-allocs", targets: ["SluiceBenchAllocs"]),
    ],
    dependencies: [
        .package(name: "Sluice", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
    ],
    targets: [
        .target(
            name: "BenchKit",
            dependencies: [
                .product(name: "Sluice", package: "Sluice"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "SluiceBench", dependencies: ["BenchKit"]),
        .executableTarget(
            name: "SluiceBenchAllocs",
            dependencies: [
                "BenchKit",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
    ]
)
