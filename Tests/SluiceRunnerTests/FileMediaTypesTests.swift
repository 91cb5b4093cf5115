import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner

/// File parts' media types come from the system's `/etc/mime.types` (Debian's `media-types`, which
/// `scripts/setup` installs), checked against Python's `mimetypes` reading the same file.
@Suite("Media types of file parts, from the system's table")
struct FileMediaTypesTests {
    @Test("the system's table is read: .cer is application/pkix-cert, and a handful more from the file", arguments: [
        ("server.cer", "application/pkix-cert"), ("chain.pem", "application/pem-certificate-chain"),
        ("a.json", "application/json"), ("A.JPG", "image/jpeg"), ("x.tar.gz", "application/gzip"),
        ("logo.svg", "image/svg+xml"), ("module.wasm", "application/wasm"), ("notes.md", "text/markdown"),
        ("data.csv", "text/csv"), ("book.epub", "application/epub+zip"), ("song.flac", "audio/flac"),
    ])
    func fromTheSystem(name: String, expected: String) throws {
        try #require(!FileMediaTypes.system.isEmpty, "\(FileMediaTypes.systemTablePath) is missing: scripts/setup installs media-types")
        #expect(FileMediaTypes.mediaType(forFileName: name) == expected)
    }

    @Test("every extension in /etc/mime.types gets the type Python's mimetypes gives it from the same file")
    func agreesWithPython() throws {
        try #require(!FileMediaTypes.system.isEmpty, "\(FileMediaTypes.systemTablePath) is missing: scripts/setup installs media-types")
        let script = """
            import json, mimetypes
            table = mimetypes.MimeTypes(filenames=())
            table.types_map = ({}, {})
            table.read("\(FileMediaTypes.systemTablePath)")
            print(json.dumps(table.types_map[True]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let python = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(python.count > 1000)
        // Python looks an extension up as written, then in lower case; Sluice matches without
        // case, so `.AMR` and `.ELN` answer in either case here, the lower-case entry first.
        for (dotted, type) in python {
            let expected = python[dotted.lowercased()] ?? type
            #expect(FileMediaTypes.system[String(dotted.dropFirst()).lowercased()] == expected, "\(dotted)")
        }
        #expect(Set(python.keys.map { String($0.dropFirst()).lowercased() }) == Set(FileMediaTypes.system.keys))
    }

    @Test("a dry run shows a .cer part sent as application/pkix-cert")
    func dryRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("-----BEGIN CERTIFICATE-----".utf8).write(to: directory.appendingPathComponent("server.cer"))
        let file = try PipelineFile.load(text: """
            stages:
              - serialization: { format: multipart }
            requests:
              - method: POST
                path: http://h/upload
                parts:
                  - { name: certificate, file: server.cer }
            """, path: directory.appendingPathComponent("p.yaml").path, directory: directory)
        let prepared = try await PipelineRunner(file: file, transport: InMemoryTransport { _ in Response(status: 200) }).prepare()
        let request = try prepared[0].result.get()
        let body = String(decoding: RunReport.bodyBytes(request.body) ?? Data(), as: UTF8.self)
        #expect(body.contains("filename=\"server.cer\"\r\nContent-Type: application/pkix-cert\r\n"), "\(body)")
    }

    @Test("mime.types parsing: comments, blank lines and malformed types passed over; a later line wins")
    func parsing() {
        let table = FileMediaTypes.table(parsing: """
            # comment line
            text/plain\t\ttxt TEXT  # trailing comment cer

            not-a-type\tbad
            application/x-first\tdup
            application/x-second\tdup
            image/png png
            """)
        #expect(table == ["txt": "text/plain", "text": "text/plain", "dup": "application/x-second", "png": "image/png"])
    }

    @Test("extensions the system does not list, and names with none, fall back", arguments: [
        ("pipeline.yaml", "application/yaml"), ("settings.plist", "application/x-plist"),
        ("noext", "application/octet-stream"), (".hidden", "application/octet-stream"), ("weird.zzz", "application/octet-stream"),
    ])
    func fallbacks(name: String, expected: String) {
        #expect(FileMediaTypes.mediaType(forFileName: name) == expected)
    }
}
