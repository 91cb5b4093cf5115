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
