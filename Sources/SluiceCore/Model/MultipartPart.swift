import Foundation

/// One part of a `multipart/form-data` body: a named field, or a named file streamed from disk.
public struct MultipartPart: Sendable, Hashable {
    /// What a part carries.
    public enum Content: Sendable, Hashable {
        /// A text field.
        case value(String)
        /// The contents of a file, streamed from disk when the request is sent; a FIFO or a
        /// device (`/dev/null`, `/dev/stdin`), which can be read only once, is read whole when
        /// the body is built.
        case file(URL)
        /// Bytes held in memory, sent as a file.
        case data(Data)
    }

    /// The form field's name.
    public var name: String
    /// What the part carries.
    public var content: Content
    /// The file name sent for the part; for a file, its last path component when `nil`.
    public var filename: String?
    /// The part's `Content-Type`; for a file, guessed from its extension when `nil`
    /// (`application/octet-stream` when the extension is unknown); for a text field given a
    /// ``filename``, from that name's extension when it is known, as curl's
    /// `-F 'name=value;filename=NAME'` types it.
    public var contentType: String?

    /// Creates a part.
    public init(name: String, content: Content, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
    }

    /// A text field.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, content: .value(value))
    }

    /// A file streamed from disk.
    public static func file(_ name: String, _ url: URL, filename: String? = nil, contentType: String? = nil) -> MultipartPart {
        MultipartPart(name: name, content: .file(url), filename: filename, contentType: contentType)
    }
}
