import Foundation

/// A `multipart/form-data` body (RFC 7578) laid out as segments: part headers in memory, file
/// contents streamed from disk when the request is sent (a file that can be read only once, a
/// FIFO or a device, is read whole when the body is built: ``InputFile/isReadOnce(_:)``).
///
/// Each part is `--BOUNDARY`, its headers (`Content-Disposition: form-data; name="…"`, with
/// `filename` and `Content-Type` for files), a blank line and its content; the body ends with
/// `--BOUNDARY--`. Names and file names escape `"`, CR and LF as `%22`, `%0D` and `%0A`, as the
/// HTML standard does; AFNetworking wrote them unescaped, which let a name break the header.
public struct MultipartFormData: Sendable {
    /// The boundary between parts.
    public let boundary: String

    /// Creates a body builder with a fresh random boundary, or the given one.
    public init(boundary: String = MultipartFormData.randomBoundary()) {
        self.boundary = boundary
    }

    /// `sluice-` and 32 random letters and digits.
    public static func randomBoundary() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return "sluice-" + String((0..<32).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// `multipart/form-data; boundary=BOUNDARY`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A file part that cannot be sent, and why.
    public struct UnreadableFile: Error, Sendable, CustomStringConvertible {
        /// The part's name.
        public var part: String
        /// The file's path.
        public var path: String
        /// Why it cannot be read.
        public var reason: String

        /// `part NAME: cannot read PATH: REASON`.
        public var description: String { "part \(part): cannot read \(path): \(reason)" }
    }

    /// The body: text fields first (a `nil` value is an empty field), then the parts, in order.
    /// - Throws: `UnreadableFile` when a file part's file cannot be opened, or is a FIFO or a
    ///   device that cannot be read or gives more than ``InputFile/defaultLimit`` bytes.
    public func body(fields: [FormEncoder.Pair], parts: [MultipartPart]) throws(UnreadableFile) -> RequestBody {
        var segments: [RequestBody.Segment] = []
        var pending = Data()
        for field in fields {
            pending.append(head(name: field.key, filename: nil, contentType: nil))
            pending.append(Data((field.value ?? "").utf8))
            pending.append(Data("\r\n".utf8))
        }
        for part in parts {
            switch part.content {
            case .value(let value):
                // A value with a file name is typed by the name's extension, when it is known.
                let contentType = part.contentType ?? part.filename.flatMap(FileMediaTypes.knownMediaType(forFileName:))
                pending.append(head(name: part.name, filename: part.filename, contentType: contentType))
                pending.append(Data(value.utf8))
            case .data(let data):
                pending.append(head(name: part.name, filename: part.filename, contentType: part.contentType ?? FileMediaTypes.fallback))
                pending.append(data)
            case .file(let url):
                let filename = part.filename ?? url.lastPathComponent
                let contentType = part.contentType ?? FileMediaTypes.mediaType(forFileName: filename)
                if InputFile.isReadOnce(url.path) {
                    // A FIFO or a device has no size until read and can be read once: read whole
                    // now, as curl's -F name=@FILE does.
                    let contents: Data
                    do {
                        contents = try InputFile.data(at: url.path, role: "the file")
                    } catch {
                        throw UnreadableFile(part: part.name, path: url.path, reason: error.reason)
                    }
                    pending.append(head(name: part.name, filename: filename, contentType: contentType))
                    pending.append(contents)
                } else {
                    try MultipartFormData.checkReadable(url, part: part.name)
                    pending.append(head(name: part.name, filename: filename, contentType: contentType))
                    segments.append(.data(pending))
                    segments.append(.file(url))
                    pending = Data()
                }
            }
            pending.append(Data("\r\n".utf8))
        }
        pending.append(Data("--\(boundary)--\r\n".utf8))
        segments.append(.data(pending))
        return segments.count == 1 ? .data(pending) : .segments(segments)
    }

    private func head(name: String, filename: String?, contentType: String?) -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(MultipartFormData.escape(name))\""
        if let filename { text += "; filename=\"\(MultipartFormData.escape(filename))\"" }
        text += "\r\n"
        if let contentType { text += "Content-Type: \(contentType)\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// A name or file name for a quoted header parameter: `"`, CR and LF percent-encoded.
    static func escape(_ text: String) -> String {
        text.replacingCodePoints(of: "\"", with: "%22").replacingCodePoints(of: "\r", with: "%0D").replacingCodePoints(of: "\n", with: "%0A")
    }

    private static func checkReadable(_ url: URL, part: String) throws(UnreadableFile) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw UnreadableFile(part: part, path: url.path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        let failure = fstat(descriptor, &status) == 0 ? nil : String(cString: strerror(errno))
        close(descriptor)
        if let failure { throw UnreadableFile(part: part, path: url.path, reason: failure) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            // Read-once files (FIFOs, devices) were read whole before this check; what is left
            // is a directory, or a file that changed kind in between.
            throw UnreadableFile(part: part, path: url.path, reason: (status.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "not a regular file")
        }
    }
}
