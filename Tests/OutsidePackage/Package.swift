// swift-tools-version:6.1
// A package outside Sluice's that depends on the library product alone (the core and the libcurl
// transport), as an application would, and a transport of its own written on the core's public
// API: scripts/outside-package-check copies it out of the repository, points SLUICE_PATH at the
// checkout, builds it, checks what it links, and runs the transport conformance suite over it.
import Foundation
import PackageDescription

let sluice = ProcessInfo.processInfo.environment["SLUICE_PATH"] ?? "../.."

let package = Package(
    name: "OutsideClient",
    dependencies: [.package(name: "Sluice", path: sluice)],
    targets: [
        .executableTarget(name: "OutsideClient", dependencies: [.product(name: "Sluice", package: "Sluice")]),
        // A transport of its own, on the core's public API alone (no libcurl), and the
        // conformance suite run over it.
        .target(name: "SocketTransport", dependencies: [.product(name: "SluiceCore", package: "Sluice")]),
        .executableTarget(
            name: "OutsideConformance",
            dependencies: ["SocketTransport", .product(name: "SluiceTransportConformance", package: "Sluice")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
