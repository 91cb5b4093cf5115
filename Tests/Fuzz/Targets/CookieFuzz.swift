import Foundation
import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `Set-Cookie` fields from a hostile server: each line of the input is one field, stored for a
/// fixed URL. The `Cookie` header never holds a control character, every stored cookie comes back
/// the same through a cookie file (curl's format), and a cookie file of any bytes is read or
/// refused with a line number, never half-trusted.
enum CookieFuzz {
    private static let url = URL(string: "https://www.example.co.uk/a/b/c")!
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let jar = CookieJar(maximumCookies: 50, maximumCookiesPerDomain: 20)
        jar.store(setCookie: text.split(separator: "\n").map(String.init), for: url, at: now)
        if let header = jar.cookieHeader(for: url, at: now) {
            require(!header.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "a control character in the Cookie header \(header.debugDescription)")
        }
        let stored = jar.cookies
        require(stored.count <= 20, "\(stored.count) cookies kept past the per-domain limit of 20")
        guard let reread = try? NetscapeCookieFile.cookies(in: NetscapeCookieFile.text(for: stored)) else {
            preconditionFailure("a file written from stored cookies does not read back: \(stored)")
        }
        require(reread.count == stored.count, "\(stored.count) cookies written, \(reread.count) read back")
        for (written, read) in zip(stored, reread) {
            let sameExpiry = written.expires.map { Int64($0.timeIntervalSince1970) } == read.expires.map { Int64($0.timeIntervalSince1970) }
            require(
                written.name.hasSameCodePoints(as: read.name) && written.value.hasSameCodePoints(as: read.value) && written.domain == read.domain
                    && written.path.hasSameCodePoints(as: read.path) && written.hostOnly == read.hostOnly && written.secure == read.secure
                    && written.httpOnly == read.httpOnly && sameExpiry,
                "\(written) came back from a cookie file as \(read)"
            )
        }
        // The same bytes as a cookie file: read whole or refused.
        if let cookies = try? NetscapeCookieFile.cookies(in: text) {
            for cookie in cookies {
                require(!(cookie.name + cookie.value).utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }, "a cookie file let \(cookie) through")
            }
        }
    }
}
