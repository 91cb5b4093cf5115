import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Dotenv files from anywhere: read or refused with a line, never a crash; every name read is a
/// variable name; and the values read, written back double-quoted with escapes, read the same.
enum VariablesFileFuzz {
    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let values: [String: String]
        do {
            values = all(try VariablesFile.dotenv(text, path: "fuzz.env"))
        } catch {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            require(error.diagnostics.allSatisfy { $0.mark.line >= 1 && $0.mark.line <= lines }, "a problem outside the text's \(lines) lines")
            return
        }
        var written = ""
        for (name, value) in values.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            var escaped = ""
            // By code points: a combining mark after a quote must not hide the quote.
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            written += "\(name)=\"\(escaped)\"\n"
        }
        let again: [String: String]
        do {
            again = all(try VariablesFile.dotenv(written, path: "again.env"))
        } catch {
            preconditionFailure("the values of '\(text)', written back, do not read: \(error)")
        }
        require(again.count == values.count && values.allSatisfy { again[$0.key]?.utf8.elementsEqual($0.value.utf8) == true }, "'\(text)' does not survive writing back: \(values.debugDescription) became \(again.debugDescription)")
    }

    /// The text and the quoted values of a dotenv file, as text.
    private static func all(_ values: (text: [String: String], typed: [String: JSONValue])) -> [String: String] {
        values.text.merging(values.typed.compactMapValues { if case .string(let text) = $0 { text } else { nil } }) { first, _ in first }
    }
}
