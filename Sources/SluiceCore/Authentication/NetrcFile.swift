/// A `.netrc` file, as curl's `-n/--netrc` reads it: `machine NAME login USER password PASS`
/// entries, a `default` entry for every other host, `macdef` blocks skipped, `#` comments; a
/// token may be quoted (`"a b"`, with `\"`, `\\`, `\n`, `\r` and `\t`), as curl reads it since
/// 7.84.
///
/// ```swift
/// let netrc = try NetrcFile(text: "machine api.example.test login alice password \"wonder land 7\"")
/// let credential = netrc.credential(for: "api.example.test")
/// ```
public struct NetrcFile: Sendable, Hashable {
    /// One `machine` (or `default`) entry.
    public struct Entry: Sendable, Hashable {
        /// The host; `nil` for `default`.
        public var machine: String?
        /// The user, when the entry names one.
        public var login: String?
        /// The password, when the entry names one.
        public var password: String?
    }

    /// Why a file is not a `.netrc` file Sluice can read.
    public struct Invalid: Error, CustomStringConvertible {
        /// The line of the problem, from 1.
        public var line: Int
        /// What is wrong.
        public var reason: String

        /// `line 3: a quoted token never ends`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// The entries, in order.
    public var entries: [Entry]

    /// Reads a file's text.
    /// - Throws: ``Invalid`` for a quoted token that never ends, or a keyword without its value.
    public init(text: String) throws(Invalid) {
        var tokens = NetrcTokens(text)
        var entries: [Entry] = []
        while let (token, line) = try tokens.next() {
            switch token {
            case "machine":
                guard let (name, _) = try tokens.next() else { throw Invalid(line: line, reason: "machine names no host") }
                entries.append(Entry(machine: name))
            case "default":
                entries.append(Entry(machine: nil))
            case "login", "password", "account":
                guard let (value, _) = try tokens.next() else { throw Invalid(line: line, reason: "\(token) has no value") }
                guard !entries.isEmpty else { throw Invalid(line: line, reason: "\(token) comes before any machine or default") }
                if token == "login" { entries[entries.count - 1].login = value }
                if token == "password" { entries[entries.count - 1].password = value }
            case "macdef":
                tokens.skipMacro()
            default:
                // curl ignores what it does not know; so does this.
                continue
            }
        }
        self.entries = entries
    }

    /// The login and password for `host`: the first `machine` entry that names it (without ASCII
    /// case), else the `default` entry; `nil` when neither has both. An entry's login never goes
    /// with another entry's password.
    public func credential(for host: String, schemes: HTTPAuthenticationSchemes = .basic) -> HTTPCredential? {
        let wanted = host.asciiLowercased
        let entry = entries.first { $0.machine?.asciiLowercased.utf8.elementsEqual(wanted.utf8) == true } ?? entries.first { $0.machine == nil }
        guard let entry, let login = entry.login, let password = entry.password else { return nil }
        return HTTPCredential(username: login, password: password, schemes: schemes)
    }
}

/// The tokens of a `.netrc` text, with the line each starts on.
private struct NetrcTokens {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func next() throws(NetrcFile.Invalid) -> (String, Int)? {
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                line += 1
                index += 1
            } else if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "#" {
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            } else {
                break
            }
        }
        guard index < scalars.count else { return nil }
        let start = line
        if scalars[index] == "\"" {
            return (try quoted(), start)
        }
        var token = String.UnicodeScalarView()
        while index < scalars.count, !scalars[index].properties.isWhitespace {
            token.append(scalars[index])
            index += 1
        }
        return (String(token), start)
    }

    private mutating func quoted() throws(NetrcFile.Invalid) -> String {
        let start = line
        index += 1
        var token = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"":
                return String(token)
            case "\\" where index < scalars.count:
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "n": token.append("\n")
                case "r": token.append("\r")
                case "t": token.append("\t")
                default: token.append(escaped)
                }
            case "\n":
                throw NetrcFile.Invalid(line: start, reason: "a quoted token never ends on its line")
            default:
                token.append(scalar)
            }
        }
        throw NetrcFile.Invalid(line: start, reason: "a quoted token never ends")
    }

    /// Skips a `macdef` block: its name's line, and the lines up to the first empty one.
    mutating func skipMacro() {
        while index < scalars.count, scalars[index] != "\n" { index += 1 }
        while index < scalars.count {
            // At a newline: an empty line after it ends the macro.
            index += 1
            line += 1
            if index >= scalars.count { return }
            if scalars[index] == "\n" { return }
            while index < scalars.count, scalars[index] != "\n" { index += 1 }
        }
    }
}
