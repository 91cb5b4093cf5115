import Foundation

/// A response body as a ``ResponseDecoding`` stage decoded it.
public enum DecodedBody: Sendable, Hashable {
    /// A JSON document.
    case json(JSONValue)
    /// A property list (XML or binary), as a JSON value: dates become ISO 8601 strings and data
    /// becomes base64 strings. `Response.decode(_:)` reads the body itself with full fidelity.
    case propertyList(JSONValue)
    /// Text, decoded with the charset of `Content-Type` (UTF-8 when it names none).
    case string(String)
    /// The bytes as they came.
    case data(Data)

    /// The decoded value as JSON: the document of `json` and `propertyList`, the text of
    /// `string` as a JSON string, `nil` for `data`.
    public var value: JSONValue? {
        switch self {
        case .json(let value), .propertyList(let value): value
        case .string(let string): .string(string)
        case .data: nil
        }
    }
}
