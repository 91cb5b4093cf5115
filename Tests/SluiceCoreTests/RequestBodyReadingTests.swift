import Foundation
import Testing
@testable import SluiceCore

@Suite("Reading a request body")
struct RequestBodyReadingTests {
    @Test("chunks come in order, files streamed; byteCount counts memory and files; an unreadable file")
    func chunksAndCount() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString)")
        let large = Data((0..<200_000).map { UInt8($0 % 251) })
        try large.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = RequestBody.segments([.data(Data("head".utf8)), .file(file), .data(Data("tail".utf8))])
        var read = Data()
        var pieces = 0
        try body.forEachChunk(url: file) { chunk in
            #expect(chunk.count <= 64 * 1024)
            read += chunk
            pieces += 1
        }
        #expect(read == Data("head".utf8) + large + Data("tail".utf8))
        #expect(pieces == 4)
        #expect(body.byteCount == 200_008)
        #expect(RequestBody.none.byteCount == 0)
        #expect(RequestBody.data(Data("abc".utf8)).byteCount == 3)

        let missing = RequestBody.file(URL(fileURLWithPath: "/nonexistent/body"))
        #expect(missing.byteCount == 0)
        let error = #expect(throws: SluiceError.self) { try missing.forEachChunk(url: file) { _ in } }
        #expect(error?.kind == .fileIO)
    }
}
