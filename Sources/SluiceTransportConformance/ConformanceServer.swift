import Foundation
import SluiceCore

/// The endpoints the conformance checks ask for, under `/conformance/` on the server given to
/// ``TransportConformance``: Sluice's test scenario server serves them over the network (see
/// `Tests/Servers/scenario_server.py`), and ``TransportConformance/respond(to:)`` answers them in
/// process, for `InMemoryTransport`.
///
/// - `GET bytes/N` (`?chunked=1`): N bytes of `abc...z` repeated, with `Content-Length` (or chunked).
/// - `POST echo`: the request body back, whole.
/// - `GET status/S`: status S, an empty body.
/// - `GET hold`: the head and one byte of two, then nothing until the client leaves.
extension TransportConformance {
    /// The body `bytes/count` answers: `abc...z` repeated.
    public static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) })
    }

    /// The endpoints answered in process, as the network server answers them: the closure to give
    /// an `InMemoryTransport` that the checks run against. A streamed request body is read here,
    /// as a server reads it.
    @Sendable
    public static func respond(to request: Request) async throws -> Response {
        let parts = request.url.path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "conformance" else { return Response(status: 404, url: request.url) }
        switch parts[1] {
        case "bytes" where parts.count == 3:
            return Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: pattern(Int(parts[2]) ?? 0), url: request.url)
        case "echo":
            return Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: try await read(request.body), url: request.url)
        case "status" where parts.count == 3:
            return Response(status: Int(parts[2]) ?? 500, url: request.url)
        case "hold":
            try await Task.sleep(for: .seconds(60))
            return Response(status: 200, body: Data("ab".utf8), url: request.url)
        default:
            return Response(status: 404, url: request.url)
        }
    }

    private static func read(_ body: RequestBody) async throws -> Data {
        switch body {
        case .none: return Data()
        case .data(let data): return data
        case .stream(let stream):
            guard let pieces = stream.take() else {
                throw SluiceError(kind: .invalidRequest, stage: "transport", message: "the streamed body was sent already")
            }
            var data = Data()
            while let piece = try await pieces.next() { data.append(piece) }
            return data
        default:
            var data = Data()
            try body.forEachChunk(url: URL(fileURLWithPath: "/")) { data.append($0) }
            return data
        }
    }
}
