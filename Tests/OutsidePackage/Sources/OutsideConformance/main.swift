import Foundation
import SocketTransport
import SluiceTransportConformance

/// Runs Sluice's transport conformance suite over `SocketTransport`, a transport written outside
/// Sluice's package on its public API alone, against the scenario server at the URL given; prints
/// one line per check and exits 1 when any failed.
guard CommandLine.arguments.count == 2, let server = URL(string: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: OutsideConformance SCENARIO_SERVER_URL\n".utf8))
    exit(2)
}
let conformance = TransportConformance(transport: SocketTransport(), server: server, directory: FileManager.default.temporaryDirectory)
var failed = 0
for check in TransportConformance.Check.allCases {
    let problems = await conformance.run(check)
    print(problems.isEmpty ? "pass: \(check.rawValue)" : "FAIL: \(check.rawValue): \(problems.joined(separator: "; "))")
    if !problems.isEmpty { failed += 1 }
}
print("conformance: \(TransportConformance.Check.allCases.count - failed) of \(TransportConformance.Check.allCases.count) checks passed")
exit(failed == 0 ? 0 : 1)
