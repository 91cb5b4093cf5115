import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// One `--form` argument, read as curl's `-F` reads it (its `tool_formparse.c`):
/// `name=VALUE`, `name=@FILE` for a file sent as a file (`@-` standard input), `name=<FILE` for a
/// file's contents sent as the value, each followed by `;type=TYPE` (with any `;param=value`
/// after it, as part of the type) and `;filename=NAME`.
///
/// The value and the file name may be quoted (`"a;b"`, with `\"` and `\\` inside), so that a
/// `;` is theirs; unquoted, the blanks around them are no part of them. An attribute curl skips
/// with a warning, or one Sluice has no use for (`headers=`, `encoder=`), is refused, as are
/// several files in one part (`@a,b`): nothing typed is dropped in silence.
struct FormPart {
    let part: MultipartPart

    init(_ argument: String) throws {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw ValidationError("form part '\(argument)' is not of the form 'name=value', 'name=@FILE' or 'name=<FILE'")
        }
        let name = String(argument[..<equals])
        var words = Words(argument[argument.index(after: equals)...])
        let kind = words.take(oneOf: "@<")
        guard let value = words.word(endingAt: kind == "@" ? "," : nil) else {
            throw ValidationError("form part '\(argument)': several files in one part (curl's @FILE,FILE) are not sent; give each its own -F, or quote a name that holds a comma")
        }
        var contentType: String?
        var filename: String?
        // After type=, a piece that is no attribute is a parameter of the type, kept as typed
        // (`type=text/plain; charset=utf-8`), as curl reads it.
        var typeStart: Substring.Index?
        while words.take(oneOf: ";") != nil {
            words.skipBlanks()
            if words.take(prefix: "type=") {
                words.skipBlanks()
                typeStart = words.position
                let type = words.attribute()
                let pieces = type.split(separator: "/", maxSplits: 1)
                guard pieces.count == 2, !pieces[0].contains(" "), !pieces[1].isEmpty else {
                    throw ValidationError("form part '\(argument)': type=\(type) is not a media type (type/subtype)")
                }
                contentType = type
            } else if words.take(prefix: "filename=") {
                filename = words.word(endingAt: nil)
                typeStart = nil
            } else if let typeStart {
                _ = words.attribute()
                contentType = words.text(from: typeStart)
            } else {
                let attribute = words.attribute()
                throw ValidationError("form part '\(argument)': unknown attribute '\(attribute)' (type= or filename=); quote a value that holds ';' (name=\"a;b\")")
            }
        }
        switch kind {
        case "@":
            guard !value.isEmpty else { throw ValidationError("form part '\(argument)' names no file after '@'") }
            // '@-' is standard input, named '-' as curl names it.
            part = value == "-"
                ? MultipartPart(name: name, content: .data(try DataPiece.contents(of: "-", role: "standard input")), filename: filename ?? "-", contentType: contentType)
                : .file(name, URL(fileURLWithPath: value), filename: filename, contentType: contentType)
        case "<":
            guard !value.isEmpty else { throw ValidationError("form part '\(argument)' names no file after '<'") }
            // The file's contents as the value: text, with no file name unless one is given. Bytes
            // that are not UTF-8 go as a file's would, typed application/octet-stream.
            let contents = try DataPiece.contents(of: value, role: "the -F file")
            let content: MultipartPart.Content = String(validating: contents, as: UTF8.self).map { .value($0) } ?? .data(contents)
            part = MultipartPart(name: name, content: content, filename: filename, contentType: contentType)
        default:
            part = MultipartPart(name: name, content: .value(value), filename: filename, contentType: contentType)
        }
    }

    /// The text after `name=`, read a word and an attribute at a time.
    private struct Words {
        private let whole: Substring
        private var text: Substring

        init(_ text: Substring) {
            whole = text
            self.text = text
        }

        /// Where the text not yet read starts.
        var position: Substring.Index { text.startIndex }

        /// The text read since `start`, without the blanks around it.
        func text(from start: Substring.Index) -> String {
            whole[start..<text.startIndex].trimmingCharacters(in: .whitespaces)
        }

        /// Takes the first character when it is one of `characters`.
        mutating func take(oneOf characters: String) -> Character? {
            guard let first = text.first, characters.contains(first) else { return nil }
            text.removeFirst()
            return first
        }

        /// Takes `prefix` when the text starts with it.
        mutating func take(prefix: String) -> Bool {
            guard text.hasPrefix(prefix) else { return false }
            text.removeFirst(prefix.count)
            return true
        }

        mutating func skipBlanks() {
            text = text.drop { $0 == " " || $0 == "\t" }
        }

        /// The text up to the next `;` (or the end), without the blanks around it: an
        /// attribute's value.
        mutating func attribute() -> String {
            let piece = text.prefix { $0 != ";" }
            text.removeFirst(piece.count)
            return piece.trimmingCharacters(in: .whitespaces)
        }

        /// A value or file name, as curl's `get_param_word` reads it: quoted (`\"` and `\\`
        /// inside), up to the closing quote, with what follows it up to `;` passed over; else up to
        /// `;`, without the blanks around it (a quote never closed is read so too). `nil` when an
        /// unquoted word runs into `separator` (curl's `,` between files).
        mutating func word(endingAt separator: Character?) -> String? {
            skipBlanks()
            if text.first == "\"", let (quoted, after) = Words.quoted(text.dropFirst()) {
                text = after.drop { $0 != ";" }
                return quoted
            }
            let word = text.prefix { $0 != ";" }
            if let separator, word.contains(separator) { return nil }
            text.removeFirst(word.count)
            return word.trimmingCharacters(in: .whitespaces)
        }

        /// The quoted text at the start of `text` (after its opening quote) and what follows the
        /// closing quote; `nil` when no quote closes it.
        private static func quoted(_ text: Substring) -> (String, Substring)? {
            var unescaped = ""
            var rest = text
            while let character = rest.first {
                rest.removeFirst()
                switch character {
                case "\\" where rest.first == "\\" || rest.first == "\"":
                    unescaped.append(rest.removeFirst())
                case "\"":
                    return (unescaped, rest)
                default:
                    unescaped.append(character)
                }
            }
            return nil
        }
    }
}
