import Foundation
import SluiceCore
import SluicePipelineFiles

/// A value a query or a filter gives a check: JSON's values, and the three kinds JSON has no
/// word for.
enum CheckValue {
    /// A JSON value: what a JSONPath selects, a status, a header, a string a filter made.
    case json(JSONValue)
    /// Bytes: the body's, a digest, what `base64-decode` made.
    case bytes(Data)
    /// A point in time, from `to-date`.
    case date(Date)
    /// An XPath node-set, as each node's string-value in document order.
    case nodes([String])

    /// The value as text, when it has one: a string, a number or Boolean as JSON writes it, the
    /// one node of a node-set of one.
    var text: String? {
        switch self {
        case .json(.string(let text)): text
        case .json(let value) where value.isNumber || value.boolValue != nil: VariableScope.text(of: value)
        case .nodes(let nodes) where nodes.count == 1: nodes[0]
        default: nil
        }
    }

    /// The value as JSON, for a capture's variable and for reports: bytes as lower-case hex, a date
    /// as RFC 3339, a node-set as a list of strings.
    var json: JSONValue {
        switch self {
        case .json(let value): value
        case .bytes(let bytes): .string(CheckValue.hex(bytes))
        case .date(let date): .string(DateFormatText.format(date, format: CheckValue.rfc3339))
        case .nodes(let nodes): .array(nodes.map(JSONValue.string))
        }
    }

    /// RFC 3339 in UTC with the fewest fraction digits that hold the date (none, 3 or 6), as
    /// chrono writes it: how a captured date is written.
    static let rfc3339 = "%Y-%m-%dT%H:%M:%S%.fZ"

    /// The kind a captured variable keeps beside its JSON text: `date` and `bytes`, which JSON
    /// has no word for.
    var kind: VariableScope.Kind? {
        switch self {
        case .date: .date
        case .bytes: .bytes
        case .json, .nodes: nil
        }
    }

    /// Bytes as lower-case hex text, two digits a byte: what `to-hex` makes, a captured byte
    /// string's text, and a report's `hex,...;`.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        HexText.lowercase(bytes)
    }

    /// The value as a report shows it: compact JSON, bytes as `hex,...;` as Hurl writes them,
    /// cut after 200 characters.
    var described: String {
        switch self {
        case .bytes(let bytes):
            let hex = CheckValue.hex(bytes.prefix(100))
            return "hex,\(hex)\(bytes.count > 100 ? "…" : "");"
        case .nodes(let nodes):
            return "a node-set of \(nodes.count)" + (nodes.isEmpty ? "" : ": " + Expectation.text(.array(nodes.map(JSONValue.string))))
        default:
            return Expectation.text(json)
        }
    }
}

extension JSONValue {
    /// Whether the value is a number of any kind.
    var isNumber: Bool {
        switch self {
        case .int, .bigInteger, .double: true
        default: false
        }
    }

    /// Whether the value is an array.
    var isArray: Bool {
        if case .array = self { true } else { false }
    }
}
