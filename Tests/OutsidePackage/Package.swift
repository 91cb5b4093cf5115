// swift-tools-version:6.1
// A package outside Sluice's that depends on the library product alone (the core and the libcurl
// transport), as an application would: scripts/outside-package-check copies it out of the
// repository, points SLUICE_PATH at the checkout, builds it and checks what it links.
import Foundation
import PackageDescription

let sluice = ProcessInfo.processInfo.environment["SLUICE_PATH"] ?? "../.."

let package = Package(
    name: "OutsideClient",
    dependencies: [.package(name: "Sluice", path: sluice)],
    targets: [
        .executableTarget(name: "OutsideClient", dependencies: [.product(name: "Sluice", package: "Sluice")])
    ],
    swiftLanguageModes: [.v6]
)
