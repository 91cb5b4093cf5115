/// A duration option value such as `500ms`, `2s` or `3` (in the option's default unit).
public struct HurlDuration: Sendable, Hashable {
    /// A duration unit.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        /// `ms`.
        case milliseconds = "ms"
        /// `s`.
        case seconds = "s"
        /// `m`.
        case minutes = "m"
    }

    /// The digits as written.
    public var value: String
    /// The unit, if written.
    public var unit: Unit?

    /// Creates a duration.
    public init(value: String, unit: Unit?) {
        self.value = value
        self.unit = unit
    }
}
