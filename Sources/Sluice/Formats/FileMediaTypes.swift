/// The media type of a file, guessed from its name's extension, for multipart file parts.
///
/// The table covers the files people upload through APIs; anything else is
/// `application/octet-stream`, as AFNetworking answers when the system knows no type.
enum FileMediaTypes {
    /// The media type for a file name, `application/octet-stream` when its extension is unknown.
    static func mediaType(forFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        return table[name[name.index(after: dot)...].lowercased()] ?? fallback
    }

    static let fallback = "application/octet-stream"

    private static let table: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "xml": "application/xml",
        "json": "application/json", "yaml": "application/yaml", "yml": "application/yaml",
        "plist": "application/x-plist", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tgz": "application/gzip", "tar": "application/x-tar",
        "bz2": "application/x-bzip2", "xz": "application/x-xz", "zst": "application/zstd",
        "7z": "application/x-7z-compressed", "wasm": "application/wasm", "bin": fallback,
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic",
        "avif": "image/avif", "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg",
        "flac": "audio/flac", "m4a": "audio/mp4", "mp4": "video/mp4", "m4v": "video/mp4",
        "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
        "avi": "video/x-msvideo", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf",
        "otf": "font/otf", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ]
}
