import ArgumentParser
import Foundation
import Sluice

/// `sluice send`'s request body options, as curl names them (`-d` and its kin, `--json`, `-F`,
/// `-T`, `--data-file`, `-G`), their rules, and the body they put on a request.
struct SendBodyOptions: ParsableArguments {
    @Option(name: [.short, .customLong("data")], help: ArgumentHelp("Body data sent as form data (Content-Type application/x-www-form-urlencoded unless -H names another), as curl's -d: repeated, the pieces are joined with '&'; @FILE (@- standard input) reads a file without its CR and LF characters.", valueName: "DATA"))
    var data: [String] = []

    @Option(name: .customLong("data-ascii"), help: ArgumentHelp("The same as -d, as curl's --data-ascii.", valueName: "DATA"))
    var dataASCII: [String] = []

    @Option(name: .customLong("data-binary"), help: ArgumentHelp("As -d, but @FILE (@- standard input) is sent byte for byte, as curl's --data-binary.", valueName: "DATA"))
    var dataBinary: [String] = []

    @Option(name: .customLong("data-raw"), help: ArgumentHelp("As -d, but a leading @ is sent as it is, as curl's --data-raw.", valueName: "DATA"))
    var dataRaw: [String] = []

    /// Every body piece in the order typed: `CurlArguments` rewrites `-d`, `--data-*` and
    /// `--json` to this option, since the parser keeps one list an option.
    @Option(name: .customLong("data-piece"), help: .hidden)
    var dataPieceArguments: [String] = []

    @Option(name: .customLong("data-urlencode"), help: ArgumentHelp("Form data URL-encoded as curl 7.88's --data-urlencode does it (a space as '+'): CONTENT, =CONTENT, NAME=CONTENT, @FILE or NAME@FILE (repeatable; @- standard input); joined to the other pieces with '&' in the order given.", valueName: "DATA"))
    var dataURLEncode: [String] = []

    @Flag(name: [.customShort("G"), .customLong("get")], help: "Send --data and --data-urlencode in the URL's query with GET, as curl's -G.")
    var get = false

    @Option(name: .customLong("json"), help: ArgumentHelp("JSON body data (@FILE reads a file, @- standard input), with Content-Type and Accept application/json unless given, POST by default, as curl's --json: repeated, the pieces are joined with nothing between them.", valueName: "DATA"))
    var json: [String] = []

    @Option(name: [.customShort("T"), .customLong("upload-file")], help: ArgumentHelp("PUT this file, streamed from disk (- standard input, a FIFO or a device sent chunked); a URL ending in '/' gets the file's name, as curl's -T.", valueName: "FILE"))
    var uploadFile: String?

    @Option(name: .customLong("data-file"), help: "A file to send as the body, streamed from disk (a FIFO or a device read whole first).")
    var dataFile: String?

    @Option(
        name: [.customShort("F"), .customLong("form")],
        help: "A multipart/form-data part (repeatable): 'name=value', or 'name=@FILE[;type=TYPE][;filename=NAME]' for a file streamed from disk."
    )
    var form: [String] = []

    /// The body pieces in the order typed (`CurlArguments` gives them as `--data-piece`), then
    /// any given to the options themselves, kind by kind (a parse that skipped `CurlArguments`).
    var pieces: [DataPiece] {
        get throws {
            var pieces: [DataPiece] = []
            for argument in dataPieceArguments {
                guard let piece = DataPiece(argument: argument) else { throw ValidationError("--data-piece '\(argument)' is not KIND:VALUE") }
                pieces.append(piece)
            }
            let given: [(DataPiece.Kind, [String])] = [(.data, data), (.data, dataASCII), (.binary, dataBinary), (.raw, dataRaw), (.urlEncode, dataURLEncode), (.json, json)]
            for (kind, values) in given {
                pieces += values.map { DataPiece(kind: kind, value: $0) }
            }
            return pieces
        }
    }

    /// Whether any body option is given.
    var isGiven: Bool {
        get throws { try !pieces.isEmpty || dataFile != nil || !form.isEmpty || uploadFile != nil }
    }

    func validate() throws {
        let pieces = try pieces
        if [!pieces.isEmpty, dataFile != nil, !form.isEmpty, uploadFile != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --data (with --data-urlencode, --data-binary, --data-raw, --json), --data-file, --form and --upload-file")
        }
        if get, dataFile != nil || !form.isEmpty || pieces.contains(where: { $0.kind == .json }) {
            throw ValidationError("-G sends --data and --data-urlencode in the query; --data-file, --form and --json are bodies")
        }
        for part in form {
            _ = try FormPart(part)
        }
    }

    /// The data pieces joined as curl joins them, `&` before each but a `--json` piece; `nil`
    /// when none is given.
    func joinedPieces() throws -> Data? {
        var joined: Data?
        for piece in try pieces {
            if joined != nil, piece.kind != .json { joined?.append(UInt8(ascii: "&")) }
            joined = (joined ?? Data()) + (try piece.bytes())
        }
        return joined
    }

    /// The URL to send to, as curl makes it: `-T FILE`'s name after a URL ending in `/`, and
    /// with `-G` the data in the query.
    func target(_ url: String, joined: Data?) -> String {
        var target = url
        if let uploadFile, uploadFile != "-", target.hasSuffix("/") {
            target += URL(fileURLWithPath: uploadFile).lastPathComponent.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        }
        if get, let joined {
            // Before a fragment, as curl joins it: after one, the server would never see it.
            target = URLText.appendingQuery(String(decoding: joined, as: UTF8.self), to: target)
        }
        return target
    }

    /// The method curl sends by default: `HEAD` with `-I`, `PUT` with `-T`, `POST` with a body,
    /// else `GET`.
    func defaultMethod(head: Bool, joined: Data?) -> String {
        head ? "HEAD" : uploadFile != nil ? "PUT" : (carriesBody(joined) ? "POST" : "GET")
    }

    /// Whether the request carries a body of data, a file or a form (not `-G`'s query).
    private func carriesBody(_ joined: Data?) -> Bool {
        !get && (joined != nil || dataFile != nil || !form.isEmpty)
    }

    /// Puts the body on `request` as curl sends it: the data with its `Content-Type` (form data,
    /// or JSON with `Accept` too) unless the request names one, `-T` streamed (`-` standard
    /// input, a FIFO or a device chunked), `--data-file` from disk (a FIFO or a device read
    /// whole first), `-F` as multipart parts; a bare `-X POST` with no `Content-Length: 0`.
    func apply(to request: inout Request, joined: Data?) throws {
        func addUnlessGiven(_ name: String, _ value: String) {
            if !request.headers.contains(name), !request.omitsHeader(name) { request.headers.add(name: name, value: value) }
        }
        if let joined, !get {
            request.body = .data(joined)
            if try pieces.contains(where: { $0.kind == .json }) {
                addUnlessGiven("Content-Type", "application/json")
                addUnlessGiven("Accept", "application/json")
            } else {
                // As curl's -d: form data unless the request names another type.
                addUnlessGiven("Content-Type", "application/x-www-form-urlencoded")
            }
        } else if let uploadFile {
            // '-' is standard input; it, a FIFO and a device are streamed chunked, as curl's -T
            // sends a file whose size it cannot know before reading it.
            if uploadFile == "-" || InputFile.isReadOnce(uploadFile) {
                request.body = .stream(RequestBodyStream(ReadOncePieces(path: uploadFile == "-" ? nil : uploadFile)))
            } else {
                request.body = .file(URL(fileURLWithPath: uploadFile))
            }
        } else if let dataFile {
            do {
                request.body = try RequestBody.fromFile(URL(fileURLWithPath: dataFile))
            } catch {
                throw RequestFailure(error: SluiceError(kind: .fileIO, stage: "command line", message: error.description), status: 26)
            }
        }
        if !carriesBody(joined), uploadFile == nil, [HTTPMethod.post, .put, .patch].contains(request.method) {
            // As curl's -X POST without data: the method alone, no 'Content-Length: 0'.
            request.omittedHeaders.append("Content-Length")
        }
        request.parts = try form.map { try FormPart($0).part }
    }
}
