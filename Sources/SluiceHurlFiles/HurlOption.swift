/// A line of an `[Options]` section: `name: value`.
public struct HurlOption: Sendable, Hashable {
    /// Where the option name starts.
    public var position: HurlSourcePosition
    /// The option.
    public var name: HurlOptionName
    /// The option's value, typed by the option.
    public var value: HurlOptionValue

    /// Creates an option.
    public init(position: HurlSourcePosition, name: HurlOptionName, value: HurlOptionValue) {
        self.position = position
        self.name = name
        self.value = value
    }
}
