import Foundation
import Testing

@testable import SluiceCore

/// A body or a part that names a file which can be read only once (a FIFO, a shell's `<(...)`,
/// `/dev/null`, `/dev/stdin`): read whole before the request is sent, as curl's
/// `--data-binary @FILE` and `-F name=@FILE` read one, or streamed chunked, as curl's `-T` sends
/// one; checked beside curl 7.88 on the same httpbin. Devices are private `mknod` copies in the
/// test's own folder.
@Suite("A FIFO or a device as a body or part file: read whole or streamed, as curl does", .timeLimit(.minutes(5)))
struct ReadOnceBodyFileTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.load()
    }

    @Test("RequestBody.fromFile: a regular file stays a file; a FIFO or a device is read whole; a device without end is refused at the limit")
    func fromFile() async throws {
        let directory = try TemporaryDirectory()
        let regular = URL(fileURLWithPath: try directory.write("on disk", to: "body.txt"))
        #expect(try RequestBody.fromFile(regular) == .file(regular))
        // Not there, or a directory: left as a file, for the transport's own error at send time.
        let missing = directory.file("missing.txt")
        #expect(try RequestBody.fromFile(missing) == .file(missing))
        #expect(try RequestBody.fromFile(directory.url) == .file(directory.url))

        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let writer = FIFOWriter(fifo, "from a FIFO\n")
        #expect(try RequestBody.fromFile(URL(fileURLWithPath: fifo)) == .data(Data("from a FIFO\n".utf8)))
        await writer.release()
        #expect(InputFile.isReadOnce(fifo))
        #expect(!InputFile.isReadOnce(regular.path) && !InputFile.isReadOnce(directory.url.path) && !InputFile.isReadOnce(missing.path))

        guard FileNodes.canMakeDevices else { return }
        let null = try FileNodes.null(at: directory.file("null").path)
        #expect(try RequestBody.fromFile(URL(fileURLWithPath: null)) == .data(Data()))
        let zero = try FileNodes.zero(at: directory.file("zero").path)
        let endless = #expect(throws: InputFile.Unreadable.self) { try RequestBody.fromFile(URL(fileURLWithPath: zero), limit: 1 << 20) }
        #expect(endless?.description == "cannot read the body file \(zero): it holds more than the 1048576 bytes it may")
    }

    @Test("a multipart part from a FIFO or a device: its bytes in the body, its name as the file name, as curl's -F name=@FILE; a directory refused")
    func multipartPart() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("notes.txt").path)
        let writer = FIFOWriter(fifo, "a note")
        let form = MultipartFormData(boundary: "b")
        let body = try form.body(fields: [], parts: [.file("f", URL(fileURLWithPath: fifo))])
        await writer.release()
        let expected = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\na note\r\n--b--\r\n"
        #expect(body == .data(Data(expected.utf8)))
        // A directory is neither: refused in the words a body file's refusal uses.
        let folder = #expect(throws: MultipartFormData.UnreadableFile.self) { try form.body(fields: [], parts: [.file("d", directory.url)]) }
        #expect(folder?.description == "part d: cannot read \(directory.url.path): it is a directory")
        guard FileNodes.canMakeDevices else { return }
        let zero = try FileNodes.zero(at: directory.file("zero").path)
        let endless = #expect(throws: MultipartFormData.UnreadableFile.self) { try form.body(fields: [], parts: [.file("z", URL(fileURLWithPath: zero))]) }
        #expect(endless?.description == "part z: cannot read \(zero): it holds more than the \(InputFile.defaultLimit) bytes it may")
    }

    @Test("a pipeline's body-file and part file may be a FIFO or a device: read once, sent with Content-Length, to every request of a load run")
    func pipeline() async throws {
        let directory = try TemporaryDirectory()
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let partFile = FileNodes.canMakeDevices ? try FileNodes.null(at: directory.file("null").path) : try FileNodes.fifo(at: directory.file("empty").path)
        let pipeline = try directory.write("""
            name: read-once
            stages:
              - serialization:
                  format: multipart
            requests:
              - name: body
                method: POST
                path: \(servers.httpbin("anything"))
                body-file: pipe
                expect:
                  body:
                    $.data: "from a FIFO\\n"
                    "$.headers['Content-Length']": "12"
              - name: part
                method: POST
                path: \(servers.httpbin("anything"))
                parts:
                  - name: f
                    file: \(URL(fileURLWithPath: partFile).lastPathComponent)
                expect:
                  body:
                    $.files.f: ""
            """, to: "read-once.yaml")
        // The part's FIFO (where devices cannot be made) is an empty file: a writer that writes nothing.
        let partWriter = FileNodes.canMakeDevices ? nil : FIFOWriter(partFile, "")
        let writer = FIFOWriter(fifo, "from a FIFO\n")
        let run = try await SluiceProcess.launch(["run", pipeline])
        await writer.release()
        await partWriter?.release()
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("2 passed, 0 failed"), "\(run.output)")

        // A load run reads the FIFO once and sends its bytes with every request, each checked.
        let loadWriter = FIFOWriter(fifo, "from a FIFO\n")
        let load = try await SluiceProcess.launch(["run", pipeline, "--only", "body", "--repeat", "3", "--concurrency", "1", "--format", "json"])
        await loadWriter.release()
        #expect(load.status == 0, "\(load.output)\(load.error)")
        let report = try JSONSerialization.jsonObject(with: Data(load.output.utf8)) as? [String: Any]
        let figures = report?["load"] as? [String: Any]
        #expect(figures?["requests"] as? Int == 3 && figures?["ok"] as? Int == 3, "\(load.output)")

        // What the FIFO's writer gave is what a failed expectation compares: another text fails.
        let otherWriter = FIFOWriter(fifo, "something else\n")
        let failed = try await SluiceProcess.launch(["run", pipeline, "--only", "body"])
        await otherWriter.release()
        #expect(failed.status == 1 && failed.output.contains("actual:   \"something else\\n\""), "\(failed.output)")
    }

    @Test("sluice send beside curl: -T streams a FIFO or a device chunked, --data-binary @ and -F read one whole, --data-file too")
    func sendBesideCurl() async throws {
        try #require(FileNodes.canMakeDevices, "mknod needs root, as in CI")
        let directory = try TemporaryDirectory()
        let null = try FileNodes.null(at: directory.file("null").path)
        let fifo = try FileNodes.fifo(at: directory.file("pipe").path)
        let url = servers.httpbin("anything").absoluteString
        /// What httpbin saw: the body, the file parts, and how the body was framed.
        func echoed(_ output: String) throws -> [String] {
            let echo = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
            let headers = echo["headers"] as? [String: String] ?? [:]
            let framing = headers["Transfer-Encoding"].map { "Transfer-Encoding: \($0)" } ?? "Content-Length"
            let files = (echo["files"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ["data: \(echo["data"] as? String ?? "")", "files: \(files.joined(separator: ", "))", framing]
        }
        for arguments in [["-T", null], ["--data-binary", "@" + null], ["-F", "f=@" + null], ["-T", fifo], ["--data-binary", "@" + fifo]] {
            let reads = arguments[1].hasSuffix("pipe")
            let sluiceWriter = reads ? FIFOWriter(fifo, "from a FIFO\n") : nil
            let sent = try await SluiceProcess.launch(["send", "-sS"] + arguments + [url])
            await sluiceWriter?.release()
            let curlWriter = reads ? FIFOWriter(fifo, "from a FIFO\n") : nil
            let curl = try await CurlCLI.run(["--show-error"] + arguments + [url])
            await curlWriter?.release()
            #expect(sent.status == 0 && curl.status == 0, "\(arguments): \(sent.error)")
            let (ours, theirs) = (try echoed(sent.output), try echoed(curl.output))
            // curl frames a multipart body with a part of unknown size chunked; Sluice, having read
            // the part whole, sends its length: both the bytes httpbin echoes.
            #expect(arguments[0] == "-F" ? ours.prefix(2) == theirs.prefix(2) : ours == theirs, "\(arguments)")
        }
        let writer = FIFOWriter(fifo, "from a FIFO\n")
        let dataFile = try await SluiceProcess.launch(["send", "-sS", "--data-file", fifo, url])
        await writer.release()
        #expect(try echoed(dataFile.output) == ["data: from a FIFO\n", "files: ", "Content-Length"])
        let zero = try FileNodes.zero(at: directory.file("zero").path)
        let endless = try await SluiceProcess.launch(["send", "-sS", "--data-file", zero, url])
        #expect(endless.status == 26)
        #expect(endless.error == "sluice: error: file I/O failure in command line: cannot read the body file \(zero): it holds more than the \(InputFile.defaultLimit) bytes it may\n")
    }
}
