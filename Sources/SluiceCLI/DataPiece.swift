import Foundation
import Sluice

/// One piece of a body given on the command line, with curl's meaning of its kind.
struct DataPiece: Equatable {
    /// Standard input, read whole the first time a piece or `-H @-` asks for it.
    private static let standardInput = FileHandle.standardInput.readDataToEndOfFile()

    /// How the piece's value is read.
    enum Kind: String, CaseIterable {
        /// `-d`, `--data`, `--data-ascii`: `@FILE` (`@-` standard input) read with CR and LF removed.
        case data
        /// `--data-binary`: `@FILE` read as it is.
        case binary
        /// `--data-raw`: the text as it is, `@` included.
        case raw
        /// `--data-urlencode`: curl's five forms, URL-encoded.
        case urlEncode = "urlencode"
        /// `--json`: as `--data-binary`, with JSON's headers.
        case json
    }

    let kind: Kind
    let value: String

    /// `KIND:VALUE`, as `--data-piece` takes it.
    var argument: String { "\(kind.rawValue):\(value)" }

    init(kind: Kind, value: String) {
        self.kind = kind
        self.value = value
    }

    /// The bytes the piece adds to the body, as curl reads them.
    func bytes() throws -> Data {
        switch kind {
        case .raw:
            return Data(value.utf8)
        case .urlEncode:
            return Data(try SendCommand.urlEncodedData(value).utf8)
        case .data, .binary, .json:
            guard value.hasPrefix("@") else { return Data(value.utf8) }
            var content = try DataPiece.contents(of: String(value.dropFirst()), role: "the \(kind == .json ? "--json" : "-d") file")
            if kind == .data { content.removeAll { $0 == 0x0D || $0 == 0x0A } }
            return content
        }
    }

    /// The bytes of the file at `path`, or of standard input for `-`.
    /// - Throws: `RequestFailure` with curl's status 26 (read error) for a file that cannot be
    ///   read: where curl sends an empty body with a warning, nothing is sent.
    static func contents(of path: String, role: String) throws -> Data {
        if path == "-" { return standardInput }
        do {
            return try InputFile.data(at: path, role: role)
        } catch {
            throw RequestFailure(error: SluiceError(kind: .fileIO, stage: "command line", message: error.description), status: 26)
        }
    }

    /// Reads `KIND:VALUE`; `nil` for an unknown kind.
    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"), let kind = Kind(rawValue: String(argument[..<colon])) else { return nil }
        self.init(kind: kind, value: String(argument[argument.index(after: colon)...]))
    }
}
