import Foundation

/// Reads a property list (XML or binary, through Foundation's `PropertyListSerialization`) into
/// a `JSONValue`: dictionaries become objects with their keys sorted, dates ISO 8601 strings,
/// and data base64 strings.
public struct PropertyListReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Why bytes are not a property list.
    public struct InvalidPropertyList: Error, Sendable, CustomStringConvertible {
        /// Foundation's explanation.
        public var description: String
    }

    /// Parses a property list.
    public func value(from data: Data) throws(InvalidPropertyList) -> JSONValue {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw InvalidPropertyList(description: "not a property list: \(error.localizedDescription)")
        }
        return PropertyListReader.convert(object)
    }

    private static func convert(_ object: Any) -> JSONValue {
        switch object {
        case let bool as Bool where type(of: object) == Bool.self:
            return .bool(bool)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            return type == "d" || type == "f" ? .double(number.doubleValue) : .int(number.intValue)
        case let string as String:
            return .string(string)
        case let date as Date:
            return .string(date.formatted(.iso8601))
        case let data as Data:
            return .string(data.base64EncodedString())
        case let array as [Any]:
            return .array(array.map(convert))
        case let dictionary as [String: Any]:
            return .object(JSONObject(dictionary.keys.sorted().map { ($0, convert(dictionary[$0]!)) }))
        default:
            return .string(String(describing: object))
        }
    }
}
