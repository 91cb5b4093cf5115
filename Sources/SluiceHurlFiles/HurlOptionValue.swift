/// The value of an option, typed by the option's ``HurlOptionValueKind``.
public enum HurlOptionValue: Sendable, Hashable {
    /// `true` or `false`.
    case boolean(Bool)
    /// An integer; its text (with an optional leading `-`) is kept as written.
    case integer(String)
    /// A duration with an optional unit.
    case duration(HurlDuration)
    /// Text, which may embed expressions (also used for file names).
    case text(HurlTemplate)
    /// `NAME=VALUE`.
    case variableDefinition(HurlVariableDefinition)
    /// A `{{...}}` expression standing for a boolean, an integer or a duration.
    case expression(HurlTemplateExpression)
}
