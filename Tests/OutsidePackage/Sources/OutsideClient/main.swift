import Foundation
import Sluice

/// Sends `GET URL/get?from=outside` through a pipeline with URL resolution and JSON decoding,
/// and prints the `from` argument the server echoed: what an application using only the
/// `Sluice` product does.
guard CommandLine.arguments.count == 2, let base = URL(string: CommandLine.arguments[1] + "/") else {
    FileHandle.standardError.write(Data("usage: OutsideClient HTTPBIN_URL\n".utf8))
    exit(2)
}
let manager = SessionManager(
    pipeline: try Pipeline {
        try URLResolution(baseURL: base)
        ResponseDecoding(format: .json)
    }
)
let response = try await manager.send(Request("get?from=outside"))
guard case .json(let body) = response.decoded, case .string(let from) = body["args"]?["from"] else {
    FileHandle.standardError.write(Data("OutsideClient: no args.from in the response\n".utf8))
    exit(1)
}
print("status \(response.status), args.from \(from)")
