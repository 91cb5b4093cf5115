// swift-tools-version:6.1
import PackageDescription

let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")

/// The stage modules under `Plugins/`, each in the folder of its name: depending on the core and
/// the stage registry only (swift-crypto where it signs), linked into the runner and offered as a
/// library. A stage that sends requests of its own sends them through the task's transport.
let stageModules: [(name: String, dependencies: [Target.Dependency])] = [
    ("SluiceRetry", []),
    ("SluiceAWSSigV4", [crypto]),
    ("SluiceHMACSignature", [crypto]),
    ("SluiceOAuth2", []),
    ("SluiceHAR", []),
]

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceCore", targets: ["SluiceCore"]),
        .library(name: "SluiceCurl", targets: ["SluiceCurl"]),
        .library(name: "SluiceReachability", targets: ["SluiceReachability"]),
        .library(name: "SluiceStageRegistry", targets: ["SluiceStageRegistry"]),
        .library(name: "SluiceJSONPath", targets: ["SluiceJSONPath"]),
        .library(name: "SluiceMarkup", targets: ["SluiceMarkup"]),
        .library(name: "SluiceHurlFiles", targets: ["SluiceHurlFiles"]),
        .library(name: "SluicePipelineFiles", targets: ["SluicePipelineFiles"]),
        .library(name: "SluiceRunner", targets: ["SluiceRunner"]),
        .library(name: "SluiceLoad", targets: ["SluiceLoad"]),
        .executable(name: "sluice", targets: ["SluiceCLI"]),
        .library(name: "SluiceHTTPTypes", targets: ["SluiceHTTPTypes"]),
        .library(name: "SluiceTransportConformance", targets: ["SluiceTransportConformance"]),
        .library(name: "SluiceOpenAPI", targets: ["SluiceOpenAPI"]),
        .library(name: "SluiceMetrics", targets: ["SluiceMetrics"]),
        .library(name: "SluiceTracing", targets: ["SluiceTracing"]),
    ] + stageModules.map { .library(name: $0.name, targets: [$0.name]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
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
            name: "CIDN2",
            pkgConfig: "libidn2",
            providers: [.apt(["libidn2-dev"])]
        ),
        // libpsl: the Public Suffix List that cookie domains are checked against, in the compiled
        // form libcurl reads too (loaded in a tenth of a millisecond, where parsing the text took 80).
        .systemLibrary(
            name: "CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        // Linux's rtnetlink headers, for the reachability monitor: no library to link.
        .systemLibrary(name: "CNetlink"),
        // zlib: the gzip and deflate content codings the transport decodes, and the HdrHistogram
        // encoding of load results (its compressed form is deflate).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The br and zstd content codings, which the transport decodes itself so that a coding it
        // does not know passes through (libcurl fails the transfer on one).
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // The pipelines' regular expressions: PCRE2, matched by code point with a bound on its
        // work (SluicePipelineFiles' TextPattern).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // The engine: the model, the chain, task contexts and the manager, the built-in stages,
        // trust, cookies, the cache, streaming bodies, codecs, the Transport protocol and the
        // in-memory transport. No I/O library but OpenSSL (certificates), libidn2 (host names),
        // libpsl (cookie domains) and the content codings' decompressors.
        .target(
            name: "SluiceCore",
            dependencies: [
                "CIDN2", "CPSL", "COpenSSL", "CZlib", "CBrotli", "CZstd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The checks every transport passes, against a live server: for transports written outside
        // this package as much as for the two inside it.
        .target(name: "SluiceTransportConformance", dependencies: ["SluiceCore"]),
        // The libcurl transport: the one module that imports CCurl.
        .target(name: "SluiceCurl", dependencies: ["SluiceCore", "CCurl", "COpenSSL"]),
        // `import Sluice`: the core and the libcurl transport, as one module.
        .target(name: "Sluice", dependencies: ["SluiceCore", "SluiceCurl"]),
        // The reachability monitor (rtnetlink) and the stage that asks it.
        .target(name: "SluiceReachability", dependencies: ["SluiceCore", "CNetlink"]),
        // What a stage module needs to be listed in a pipeline file: descriptors, typed options,
        // the registry and the loader of modules built as shared libraries. No libyaml.
        .target(name: "SluiceStageRegistry", dependencies: ["SluiceCore"]),
        // JSONPath (RFC 9535) and I-Regexp (RFC 9485) over JSONValue: pure code, no I/O library.
        .target(name: "SluiceJSONPath", dependencies: ["SluiceCore"]),
        // HTML and XML (libxml2, as Hurl): XPath 1.0 over bodies, HTML character references.
        .target(name: "SluiceMarkup", dependencies: ["CLibXML2"]),
        // Hurl files: their grammar read into a syntax tree, and that tree made a pipeline document.
        .target(name: "SluiceHurlFiles", dependencies: ["SluiceCore", "SluiceStageRegistry", "SluicePipelineFiles"]),
        // Pipeline files: YAML, variables, templates, conditions, expectations, CSV rows, and the
        // assembly of a file into pipelines.
        .target(
            name: "SluicePipelineFiles",
            dependencies: [
                "SluiceCore", "SluiceJSONPath", "SluiceReachability", "SluiceStageRegistry", "CYAML", "CPCRE2",
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]
        ),
        // The runner: runs a pipeline file's requests, checks them, and writes its reports.
        .target(
            name: "SluiceRunner",
            dependencies: ["SluiceCore", "SluiceJSONPath", "SluiceMarkup", "SluiceStageRegistry", "SluicePipelineFiles", crypto]
        ),
        // Load runs: open and closed loops, shards, their results and merge (HdrHistogram, zlib).
        .target(
            name: "SluiceLoad",
            dependencies: [
                "SluiceCore", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner", "CZlib",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // Conversions to and from swift-http-types, the vocabulary of swift-openapi-runtime,
        // Hummingbird and Vapor: a module of its own, so the core depends on none of them.
        .target(
            name: "SluiceHTTPTypes",
            dependencies: ["SluiceCore", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        .testTarget(
            name: "SluiceOpenAPITests",
            dependencies: [
                "SluiceOpenAPI", "Sluice", "SluiceStageRegistry", "SluiceRetry", crypto,
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "Generated/SOURCE-SHA256"]
        ),
        .testTarget(
            name: "SluiceHTTPTypesTests",
            dependencies: ["SluiceHTTPTypes", "Sluice", "SluiceStageRegistry", .product(name: "HTTPTypes", package: "swift-http-types")]
        ),
        // A swift-openapi-runtime ClientTransport over a Sluice pipeline, for generated clients.
        .target(
            name: "SluiceOpenAPI",
            dependencies: [
                "SluiceCore", "SluiceHTTPTypes",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // Every task's count, duration, bytes and errors to swift-metrics, as an event monitor.
        .target(
            name: "SluiceMetrics",
            dependencies: [
                "SluiceCore", "SluiceReachability", .product(name: "CoreMetrics", package: "swift-metrics"), .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // A span per task and per exchange through swift-distributed-tracing, with OpenTelemetry's
        // HTTP client conventions.
        .target(
            name: "SluiceTracing",
            dependencies: ["SluiceCore", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        .executableTarget(
            name: "SluiceCLI",
            dependencies: [
                "Sluice", "SluiceJSONPath", "SluiceReachability", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner", "SluiceLoad", "SluiceHurlFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + stageModules.map { .target(name: $0.name) },
            // The command's reference, beside its code.
            exclude: ["README.md"],
            // Stage modules loaded at run time (`plugins:`) bind to the runner's own copy of
            // Sluice, so the runner exports its symbols to them.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]
        ),
        // The fuzz targets, replayed over their corpus by SluiceTests and run under libFuzzer by
        // `sluice-fuzz` as `scripts/fuzz` builds it (SanitizerCoverage, ASan, libFuzzer, -DSLUICE_FUZZING).
        .target(
            name: "SluiceFuzzTargets",
            dependencies: ["Sluice", "SluiceJSONPath", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner", "SluiceLoad", "CZlib"],
            path: "Tests/Fuzz/Targets"
        ),
        .executableTarget(
            name: "sluice-fuzz",
            dependencies: ["SluiceFuzzTargets"],
            path: "Tests/Fuzz/Driver"
        ),
        // The HTTP cache against http-tests/cache-tests: the suite's runner (Node) sends each request
        // through this bridge's ResponseCaching pipeline (scripts/cache-tests).
        .executableTarget(
            name: "sluice-cache-bridge",
            dependencies: ["Sluice"],
            path: "Tests/CacheTests/Bridge"
        ),
        // Ten thousand failing requests in a process of their own; LeakCheckTests reads its figures.
        .systemLibrary(name: "CMalloc", path: "Tests/LeakCheck/CMalloc"),
        .executableTarget(
            name: "sluice-leak-check",
            dependencies: ["Sluice", "CMalloc"],
            path: "Tests/LeakCheck/Check"
        ),
        // The mallocs of each hot path, counted by malloc-interposer in a process of their own:
        // scripts/allocation-counts builds it in release mode and holds the figures to thresholds.
        .executableTarget(
            name: "sluice-allocation-counts",
            dependencies: [
                "Sluice", "SluiceJSONPath", "SluicePipelineFiles", "SluiceRunner",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Tests/AllocationCounts/Counter"
        ),
        // A test target per module: its own unit tests, without sockets but for the libcurl ones.
        .testTarget(name: "SluiceCoreTests", dependencies: ["SluiceCore"]),
        .testTarget(name: "SluiceCurlTests", dependencies: ["SluiceCore", "SluiceCurl", "CCurl"]),
        .testTarget(name: "SluiceTransportConformanceTests", dependencies: ["SluiceCore", "SluiceCurl", "SluiceTransportConformance"]),
        .testTarget(name: "SluiceReachabilityTests", dependencies: ["SluiceCore", "SluiceReachability", "CNetlink"]),
        .testTarget(name: "SluiceStageRegistryTests", dependencies: ["SluiceCore", "SluiceStageRegistry"]),
        .testTarget(name: "SluiceJSONPathTests", dependencies: ["SluiceCore", "SluiceJSONPath"]),
        .testTarget(name: "SluiceMarkupTests", dependencies: ["SluiceMarkup"]),
        .testTarget(name: "SluiceHurlFilesTests", dependencies: ["SluiceHurlFiles", "SluicePipelineFiles", "SluiceStageRegistry"]),
        .testTarget(
            name: "SluicePipelineFilesTests",
            dependencies: ["SluiceCore", "SluiceCurl", "SluiceReachability", "SluiceStageRegistry", "SluicePipelineFiles", "CYAML"]
        ),
        .testTarget(
            name: "SluiceRunnerTests",
            dependencies: ["SluiceCore", "SluiceCurl", "SluiceJSONPath", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner"]
        ),
        .testTarget(
            name: "SluiceLoadTests",
            dependencies: [
                "SluiceCore", "SluiceCurl", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner", "SluiceLoad", "CZlib",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .testTarget(name: "SluiceFuzzTargetsTests", dependencies: ["SluiceFuzzTargets"]),
        .testTarget(
            name: "SluiceIntegrationTests",
            dependencies: [
                "Sluice", "SluiceJSONPath", "SluiceReachability", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner", "SluiceLoad",
                "SluiceRetry", "SluiceHTTPTypes", "SluiceMetrics", "SluiceOpenAPI", "SluiceTracing",
                "SluiceAWSSigV4", "SluiceHAR", "SluiceHMACSignature", "SluiceOAuth2",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ] + stageModules.map { module in
        .target(
            name: module.name,
            dependencies: ["SluiceCore", "SluiceStageRegistry"] + module.dependencies,
            path: "Plugins/\(module.name)"
        )
    } + stageModules.map { module in
        .testTarget(
            name: module.name + "Tests",
            dependencies: [.target(name: module.name), "Sluice", "SluiceStageRegistry", "SluicePipelineFiles", "SluiceRunner"] + module.dependencies
        )
    },
    swiftLanguageModes: [.v6]
)

// Every Swift target sees the members of only the modules its file imports (SE-0444), so that
// each file's imports say what it uses, and each target's dependencies what its files import.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
