import Foundation

/// The media type of a file, guessed from its name's extension, for multipart file parts.
///
/// The types come from the system's table, `/etc/mime.types` (Debian's `media-types` package, which
/// `scripts/setup` installs), read once; where an extension is listed twice the later line wins, as
/// Python's `mimetypes` reads the file. A small built-in table answers for the extensions the
/// system does not list and for a system without the file. Anything else is
/// `application/octet-stream`, as AFNetworking answers when the system knows no type.
enum FileMediaTypes {
    /// The media type for a file name, `application/octet-stream` when its extension is unknown.
    static func mediaType(forFileName name: String) -> String {
        knownMediaType(forFileName: name) ?? fallback
    }

    /// The media type for a file name; `nil` when its extension is unknown.
    static func knownMediaType(forFileName name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        return system[fileExtension] ?? builtIn[fileExtension]
    }

    static let fallback = "application/octet-stream"

    /// Where the system keeps its table.
    static let systemTablePath = "/etc/mime.types"

    /// The system's table, extension to type; empty when the file cannot be read.
    static let system: [String: String] = (try? String(contentsOfFile: systemTablePath, encoding: .utf8)).map(table(parsing:)) ?? [:]

    /// A `mime.types` file as a table: each line is a type and the extensions that take it,
    /// separated by blanks; `#` starts a comment. Extensions are matched without case; a type
    /// that is not `type/subtype` is passed over.
    static func table(parsing text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.prefix { $0 != "#" }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let type = fields.first, type.contains("/"), MediaType(parsing: String(type)) != nil else { continue }
            for fileExtension in fields.dropFirst() {
                table[fileExtension.lowercased()] = String(type)
            }
        }
        return table
    }

    /// The types people upload through APIs most, for a system with no table, and the few Sluice
    /// itself writes that Debian's table lacks (YAML, RFC 9512; property lists).
    static let builtIn: [String: String] = [
        "txt": "text/plain", "csv": "text/csv", "html": "text/html", "css": "text/css", "js": "text/javascript",
        "md": "text/markdown", "xml": "application/xml", "json": "application/json", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "wasm": "application/wasm",
        "yaml": "application/yaml", "yml": "application/yaml", "plist": "application/x-plist",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "mp3": "audio/mpeg", "mp4": "video/mp4", "webm": "video/webm",
        "pem": "application/pem-certificate-chain", "cer": "application/pkix-cert",
    ]
}
