import SluiceCore
import SluiceStageRegistry

/// A node tree written as YAML in block style, as a person would write a pipeline file: what
/// `sluice convert` prints. Reading the text back gives the same tree: a scalar written quoted
/// (a string) stays a string, a plain one (`200`, `true`, `null`) keeps the type YAML's core
/// schema gives it, and `!!binary` stays bytes.
public struct YAMLWriter {
    /// A writer.
    public init() {}

    /// The text of a document whose root is `node`, ending with a line break.
    public func text(of node: YAMLNode) -> String {
        var lines: [String] = []
        write(node, indent: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes a collection's lines at `indent`; a scalar root as one line.
    private func write(_ node: YAMLNode, indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        switch node.content {
        case .scalar:
            lines.append(pad + scalar(node))
        case .mapping(let pairs):
            for pair in pairs {
                let key = pad + scalar(pair.key, isKey: true) + ":"
                entry(pair.value, after: key, indent: indent, into: &lines)
            }
        case .sequence(let elements):
            for element in elements {
                if case .mapping(let pairs) = element.content, let first = pairs.first {
                    // `- key: value`, the mapping's other keys under its first.
                    entry(first.value, after: pad + "- " + scalar(first.key, isKey: true) + ":", indent: indent + 2, into: &lines)
                    for pair in pairs.dropFirst() {
                        entry(pair.value, after: pad + "  " + scalar(pair.key, isKey: true) + ":", indent: indent + 2, into: &lines)
                    }
                } else {
                    entry(element, after: pad + "-", indent: indent, into: &lines)
                }
            }
        }
    }

    /// A value after its key (`key:`) or dash (`-`): a scalar or an empty collection on the
    /// same line, any other collection on the lines below, indented.
    private func entry(_ value: YAMLNode, after head: String, indent: Int, into lines: inout [String]) {
        switch value.content {
        case .scalar:
            let text = scalar(value)
            lines.append(text.isEmpty ? head : head + " " + text)
        case .mapping(let pairs) where pairs.isEmpty:
            lines.append(head + " {}")
        case .sequence(let elements) where elements.isEmpty:
            lines.append(head + " []")
        case .mapping, .sequence:
            lines.append(head)
            write(value, indent: indent + 2, into: &lines)
        }
    }

    /// A scalar as written: plain when YAML reads it back as the same value, double-quoted
    /// otherwise; a key plain whenever it can be.
    private func scalar(_ node: YAMLNode, isKey: Bool = false) -> String {
        guard case .scalar(let text, let quoted) = node.content else { return "" }
        if node.tag == "tag:yaml.org,2002:binary" { return "!!binary " + doubleQuoted(text) }
        if !quoted {
            // A number, a Boolean or null is written as it is (`-2.2` starts with a dash, and is a number).
            let readsAsValue = YAMLNode.coreSchemaValue(text).stringValue == nil
            return text.isEmpty || readsAsValue || YAMLWriter.isPlainSafe(text) ? text : doubleQuoted(text)
        }
        let readsAsString = YAMLNode(.scalar(text, quoted: false), mark: node.mark).isNull == false
            && YAMLNode.coreSchemaValue(text).stringValue != nil
        return YAMLWriter.isPlainSafe(text) && (readsAsString || isKey) ? text : doubleQuoted(text)
    }

    /// Whether text can stand as a plain scalar in block context and read back as itself.
    static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if "-?:,[]{}#&*!|>'\"%@`~ ".unicodeScalars.contains(first) || last == " " || last == ":" { return false }
        if text.contains(": ") || text.contains(" #") || text.hasPrefix("- ") { return false }
        return text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\u{FEFF}" }
    }

    /// Text in double quotes, with YAML's escapes for quotes, backslashes and control characters.
    private func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar == "\u{FEFF}" {
                    quoted += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
