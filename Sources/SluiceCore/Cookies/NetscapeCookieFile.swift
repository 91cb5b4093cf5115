import Foundation

/// The cookie file curl (`-b`, `-c`), wget and Hurl read and write: one cookie a line, seven
/// fields separated by tabs (domain, whether subdomains match, path, secure, expiry in seconds
/// since 1970 or 0 for a session cookie, name, value), a `#HttpOnly_` prefix on the domain of
/// `HttpOnly` cookies, and `#` comments.
public enum NetscapeCookieFile {
    /// Why a line of a cookie file was refused.
    public struct LineError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// What is wrong with it.
        public var message: String

        /// `line N: MESSAGE`.
        public var description: String { "line \(line): \(message)" }
    }

    /// The cookies of a file's text. A line whose fields cannot be a cookie (a control character
    /// or `;` in a name or value, a name with `=`, a bad domain, expiry or flag) is refused with
    /// its number: a file is input like any other, and a value with `;` would send extra cookies.
    public static func cookies(in text: String) throws(LineError) -> [Cookie] {
        var cookies: [Cookie] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                continue
            }
            let number = index + 1
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 else { throw LineError(line: number, message: "expected 7 fields separated by tabs, found \(fields.count)") }
            var domain = Substring(fields[0])
            let dotted = domain.hasPrefix(".")
            if dotted { domain = domain.dropFirst() }
            guard let host = HostName.normalized(String(domain)) else { throw LineError(line: number, message: "'\(fields[0])' is not a domain") }
            guard let subdomains = flag(fields[1]), let secure = flag(fields[3]) else {
                throw LineError(line: number, message: "the subdomain and secure fields must be TRUE or FALSE")
            }
            guard let seconds = Int64(fields[4]), seconds >= 0 else { throw LineError(line: number, message: "'\(fields[4])' is not an expiry time") }
            guard fields[2].hasPrefix("/") else { throw LineError(line: number, message: "the path must start with /") }
            let cookie = Cookie(
                name: fields[5], value: fields[6], domain: host, path: fields[2],
                expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
                hostOnly: !(subdomains || dotted), secure: secure, httpOnly: httpOnly
            )
            // The domain is a normalized host and the path starts with `/`: what is left is the name
            // and value (a value with `;` would send extra cookies).
            guard cookie.isWellFormed else { throw LineError(line: number, message: "the name or value holds a character a cookie cannot") }
            cookies.append(cookie)
        }
        return cookies
    }

    /// The cookie of one line of a cookie file, its seven fields separated by tabs or, in a line
    /// without a tab, by runs of spaces (as Hurl's `@cookie_storage_set` writes it).
    /// - Throws: ``LineError`` (line 1) as ``cookies(in:)`` refuses a line, or for a comment or
    ///   an empty line.
    public static func cookie(line: String) throws(LineError) -> Cookie {
        let fields = line.contains("\t") ? line.split(separator: "\t", omittingEmptySubsequences: false) : line.split(separator: " ")
        guard fields.count == 7, !line.contains("\n"), !line.contains("\r") else {
            throw LineError(line: 1, message: "expected 7 fields (DOMAIN SUBDOMAINS PATH SECURE EXPIRES NAME VALUE), found \(fields.count)")
        }
        guard let cookie = try cookies(in: fields.joined(separator: "\t")).first else {
            throw LineError(line: 1, message: "a comment is not a cookie")
        }
        return cookie
    }

    /// The file's text for `cookies`, in the order given; session cookies get expiry 0, as curl
    /// writes them.
    public static func text(for cookies: [Cookie]) -> String {
        var text = "# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n# Written by Sluice.\n\n"
        for cookie in cookies {
            let domain = (cookie.httpOnly ? "#HttpOnly_" : "") + (cookie.hostOnly ? "" : ".") + cookie.domain
            let expires = cookie.expires.map { String(max(1, Int64($0.timeIntervalSince1970))) } ?? "0"
            let fields = [domain, cookie.hostOnly ? "FALSE" : "TRUE", cookie.path, cookie.secure ? "TRUE" : "FALSE", expires, cookie.name, cookie.value]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// Loads the cookies of a file into `jar`; a missing file is an empty one, and so is a
    /// device such as `/dev/null` (curl's `-b /dev/null`). A FIFO or `<(...)` is read as it is.
    /// - Throws: ``LineError`` for a line that is not a cookie, and ``InputFile/Unreadable``
    ///   saying why the file cannot be read (a directory, no permission, not UTF-8).
    public static func load(_ url: URL, into jar: CookieJar) throws {
        let text: String
        do throws(InputFile.Unreadable) {
            text = try InputFile.text(at: url.path, role: "the cookie file")
        } catch {
            if error.isMissing { return }
            throw error
        }
        for cookie in try cookies(in: text) { jar.insert(cookie) }
    }

    /// Writes every cookie of `jar` to a file through ``OutputFile``: a new file is readable by its
    /// owner only (cookies are credentials); an existing one keeps its inode, links and mode
    /// and changes only once the whole text is written; a device or FIFO takes the text as it is.
    /// - Throws: `.fileIO` naming the file and the reason.
    public static func save(_ jar: CookieJar, to url: URL) throws {
        try OutputFile.write(Data(text(for: jar.cookies).utf8), to: url.path, permissions: 0o600, role: "the cookie file", stage: "cookies")
    }

    private static func flag(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }
}
