/// The `NAME=VALUE` of a `variable` option.
public struct HurlVariableDefinition: Sendable, Hashable {
    /// Where the name starts.
    public var position: HurlSourcePosition
    /// The variable name.
    public var name: String
    /// The value: `null`, a boolean, a number, a quoted string or unquoted text.
    public var value: HurlValue

    /// Creates a variable definition.
    public init(position: HurlSourcePosition, name: String, value: HurlValue) {
        self.position = position
        self.name = name
        self.value = value
    }
}
