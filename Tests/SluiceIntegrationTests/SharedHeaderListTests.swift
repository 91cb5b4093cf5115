import Foundation

import Testing
@testable import SluiceCore
@testable import SluiceCurl

/// The transport keeps the header lists of its latest transfers and hands one to a transfer that
/// sends the same lines. These are the attacks on that memory: a request must go out with its own
/// lines, byte for byte, whatever the requests before it or beside it sent.
@Suite("Header lists shared between transfers")
struct SharedHeaderListTests {
    /// The request's fields as the scenario server received them (`/raw/`), each value as the
    /// bytes on the wire (the server reads a head as Latin-1, one character a byte).
    static func received(_ response: Response) throws -> [(name: String, value: [UInt8])] {
        let object = try response.jsonObject()
        let headers = try #require(object["headers"] as? [[String]])
        return headers.map { ($0[0], $0[1].unicodeScalars.map { UInt8($0.value) }) }
    }

    static func value(_ name: String, in fields: [(name: String, value: [UInt8])]) -> [UInt8]? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test("canonically equivalent values that differ in bytes each go out as written, in turn and at once")
    func canonicallyEquivalentValues() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager(redirects: nil)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        // Equal as Swift strings, not as bytes: a memory keyed by String == would send one for the other.
        #expect(composed == decomposed)
        #expect(HTTPHeaders(dictionaryLiteral: ("X-Name", composed)) != HTTPHeaders(dictionaryLiteral: ("X-Name", decomposed)))
        func send(_ value: String) async throws -> [UInt8]? {
            let response = try await manager.send(Request(url: servers.scenario.appendingPathComponent("raw/shared"), headers: ["X-Name": value]))
            return Self.value("X-Name", in: try Self.received(response))
        }
        for value in [composed, decomposed, composed, decomposed] {
            #expect(try await send(value) == Array(value.utf8))
        }
        let sent = try await withThrowingTaskGroup(of: (String, [UInt8]?).self) { group in
            for index in 0..<32 {
                let value = index.isMultiple(of: 2) ? composed : decomposed
                group.addTask { (value, try await send(value)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sent.count == 32)
        for (value, received) in sent {
            #expect(received == Array(value.utf8))
        }
    }

    @Test("more header sets than the memory keeps, with omitted fields and bodies, each sends its own lines")
    func manyHeaderSets() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager(redirects: nil)
        let url = servers.scenario.appendingPathComponent("raw/sets")
        var requests: [Request] = []
        for index in 0..<6 {
            requests.append(Request(url: url, headers: ["X-Set": "\(index)", "X-Same": "same"]))
        }
        var omitting = Request(url: url, headers: ["X-Set": "omits", "X-Same": "same"])
        omitting.omittedHeaders = ["Accept"]
        requests.append(omitting)
        var posting = Request(method: .post, url: url, headers: ["X-Set": "omits", "X-Same": "same"], body: .data(Data("x".utf8)))
        posting.omittedHeaders = ["Accept"]
        requests.append(posting)
        requests.append(Request(url: url, headers: ["X-Set": "empty", "X-Empty": ""]))
        requests.append(Request(url: url))
        // Each set three times over, interleaved: more distinct sets than the memory's capacity.
        let order = (0..<3).flatMap { _ in requests.indices }
        #expect(requests.count > CurlHeaderLists.capacity)
        for index in order {
            let request = requests[index]
            let fields = try Self.received(try await manager.send(request))
            for field in request.headers {
                #expect(Self.value(field.name, in: fields) == Array(field.value.utf8), "request \(index): \(field.name)")
            }
            let names = Set(fields.map { $0.name.lowercased() })
            #expect(names.contains("x-set") == request.headers.contains("X-Set"), "request \(index)")
            #expect(names.contains("x-empty") == request.headers.contains("X-Empty"), "request \(index)")
            #expect(names.contains("accept") == request.omittedHeaders.isEmpty, "request \(index): \(names.sorted())")
            // A POST with a body whose type nobody set sends none, not libcurl's form type.
            #expect(!names.contains("content-type"), "request \(index)")
            #expect(!names.contains("expect"), "request \(index)")
        }
    }
}
