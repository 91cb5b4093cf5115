import Foundation
import SluiceCore

/// `sluice send`'s command line read as curl reads its own, before the argument parser sees it.
///
/// curl takes a value attached to a short option (`-XPOST`, `-dname=x`, `-o-`), flags run
/// together with a valued one last (`-sSLo page.html`, `-fsSLo-`), and `--long=value`; and it
/// joins the pieces of the body options (`-d`, `--data-ascii`, `--data-binary`, `--data-raw`,
/// `--data-urlencode`, `--json`) in the order they were typed, which the parser, keeping one list
/// an option, would lose. So each such argument is rewritten to the hidden `--data-piece
/// KIND:VALUE`, in order, and a short cluster is split into its options.
enum CurlArguments {
    /// curl's short options that take a value (curl 7.88's `--help all`).
    static let valuedShortOptions: Set<Character> = [
        "A", "b", "c", "C", "d", "D", "e", "E", "F", "h", "H", "K", "m", "o", "P", "Q", "r", "t", "T", "u", "U", "w", "x", "X",
        "y", "Y", "z",
    ]

    /// The long names of `sluice send`'s short options that take a value: a value that starts
    /// with '-' (`-r -500`, `-H -x`) is handed over as `--long=value`, which the parser reads
    /// whatever the value holds.
    static let longNames: [Character: String] = [
        "A": "user-agent", "b": "cookie", "c": "cookie-jar", "C": "continue-at", "D": "dump-header", "e": "referer",
        "E": "cert", "F": "form", "H": "header", "m": "max-time", "o": "output", "r": "range", "T": "upload-file",
        "u": "user", "w": "write-out", "x": "proxy", "X": "request",
    ]

    /// The body options, by the name `--data-piece` gives their kind.
    static let bodyOptions: [String: DataPiece.Kind] = [
        "-d": .data, "--data": .data, "--data-ascii": .data, "--data-binary": .binary, "--data-raw": .raw,
        "--data-urlencode": .urlEncode, "--json": .json,
    ]

    /// `arguments` (those after `send`) with short clusters split, `--long=value` kept as the
    /// parser reads it, and body options rewritten to `--data-piece` in the order given.
    /// Everything after `--` is left alone.
    static func normalized(_ arguments: [String]) -> [String] {
        var output: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                output += arguments[(index - 1)...]
                break
            }
            var options = [argument]
            var attached: String?
            if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 {
                (options, attached) = cluster(argument)
            } else if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "="), bodyOptions[String(argument[..<equals])] != nil {
                options = [String(argument[..<equals])]
                attached = String(argument[argument.index(after: equals)...])
            }
            let last = options.removeLast()
            output += options
            guard let kind = bodyOptions[last] else {
                output.append(last)
                if let attached {
                    output.append(attached)
                } else if let letter = short(last), valuedShortOptions.contains(letter), index < arguments.count {
                    // The value, as it is, even when it starts with '-' (`-r -500`, `-H -x`).
                    let value = arguments[index]
                    index += 1
                    if value.hasPrefix("-"), value != "-", let long = longNames[letter] {
                        output[output.count - 1] = "--\(long)=\(value)"
                    } else {
                        output.append(value)
                    }
                }
                continue
            }
            // A body option's value came attached, or is the next argument.
            var value = attached
            if value == nil, index < arguments.count {
                value = arguments[index]
                index += 1
            }
            // Without a value the option stays, and the parser names it as lacking one.
            output += value.map { ["--data-piece", DataPiece(kind: kind, value: $0).argument] } ?? [last]
        }
        return output
    }

    /// The letter of a short option (`-o`), `nil` for anything else.
    private static func short(_ argument: String) -> Character? {
        argument.count == 2 && argument.hasPrefix("-") && argument != "--" ? argument.last : nil
    }

    /// A short cluster as curl reads it: flags, then a valued option whose value is the rest of
    /// the cluster, if any (`-sSLo-` is `-s -S -L -o` with `-` attached; `-XPOST` is `-X` with
    /// `POST`).
    private static func cluster(_ argument: String) -> (options: [String], attached: String?) {
        var options: [String] = []
        var rest = Substring(argument.dropFirst())
        while let letter = rest.first {
            rest = rest.dropFirst()
            options.append("-" + String(letter))
            if valuedShortOptions.contains(letter) {
                return (options, rest.isEmpty ? nil : String(rest))
            }
        }
        return (options, nil)
    }
}

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
