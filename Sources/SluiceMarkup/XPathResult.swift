/// What an XPath 1.0 expression evaluates to: a node-set or one of the three scalar types.
public enum XPathResult: Sendable, Equatable {
    /// A node-set, as the string-value of each node in document order (`//li` gives each item's
    /// text; `//a/@href` each link).
    case nodes([String])
    /// A string (`string(//title)`, `normalize-space(...)`).
    case string(String)
    /// A number (`count(//li)`, `sum(...)`); XPath numbers are doubles.
    case number(Double)
    /// A boolean (`boolean(//form)`, `//a = 'x'`).
    case boolean(Bool)
}
