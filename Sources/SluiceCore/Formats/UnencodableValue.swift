/// Why a value cannot be written in a format (form, JSON, property list), and where it is.
public struct UnencodableValue: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value is, as a JSONPath, for example `$.items[2].price`.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// Creates the error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
}
