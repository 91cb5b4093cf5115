/// A line of a `[Multipart]` section: a text field or a file part.
public struct HurlMultipartParameter: Sendable, Hashable {
    /// The value of a multipart line.
    public enum Value: Sendable, Hashable {
        /// A text field: `name: value`.
        case text(HurlTemplate)
        /// A file part: `name: file,FILENAME;` optionally followed by a content type.
        case file(filename: HurlTemplate, contentType: String?)
    }

    /// Where the name starts.
    public var position: HurlSourcePosition
    /// The field name.
    public var name: HurlTemplate
    /// The field value.
    public var value: Value

    /// Creates a multipart line.
    public init(position: HurlSourcePosition, name: HurlTemplate, value: Value) {
        self.position = position
        self.name = name
        self.value = value
    }
}
