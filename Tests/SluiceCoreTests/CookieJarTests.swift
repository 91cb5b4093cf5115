import Foundation
import Testing
@testable import SluiceCore

/// The cookie jar against the http-state suite (RFC 6265's own tests), the RFC's date algorithm
/// examples, and the attacks a hostile server or cookie file would try.
@Suite("Cookie jar (RFC 6265)")
struct CookieJarTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/http-state")

    /// When the suite was written: its `Expires` dates are in the future from here.
    static let suiteTime = Date(timeIntervalSince1970: 1_293_840_000)

    static func json(_ name: String) -> JSONValue {
        let text = (try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)) ?? ""
        let withoutComments = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("//") }.joined(separator: "\n")
        return (try? JSONReader().value(from: Data(withoutComments.utf8))) ?? .null
    }

    struct ParserCase: CustomStringConvertible, Sendable {
        let test: String
        let received: [String]
        let sentTo: String?
        let sent: [String]
        var description: String { test }
    }

    static let parserCases: [ParserCase] = {
        guard case .array(let tests) = json("parser.json") else { return [] }
        return tests.compactMap { test in
            guard case .string(let name)? = test["test"], !name.hasPrefix("DISABLED"),
                case .array(let received)? = test["received"], case .array(let sent)? = test["sent"]
            else { return nil }
            return ParserCase(
                test: name, received: received.compactMap(\.stringValue), sentTo: test["sent-to"]?.stringValue,
                sent: sent.map { "\($0["name"]?.stringValue ?? "")=\($0["value"]?.stringValue ?? "")" }
            )
        }
    }()

    @Test("the http-state suite is read: 222 tests, 218 of them enabled")
    func suiteIsRead() {
        #expect(Self.parserCases.count == 218)
    }

    @Test("every enabled test of the http-state parser suite sends what it expects", arguments: parserCases)
    func parser(test: ParserCase) throws {
        let jar = CookieJar()
        let base = URL(string: "http://home.example.org:8888/cookie-parser?\(test.test.lowercased())")!
        jar.store(setCookie: test.received, for: base, at: Self.suiteTime)
        let target = URL(string: test.sentTo ?? "/cookie-parser-result?\(test.test.lowercased())", relativeTo: base)!.absoluteURL
        let sent = jar.cookies(for: target, at: Self.suiteTime).map { "\($0.name)=\($0.value)" }
        #expect(sent == test.sent)
    }

    static let dates: [(String, String?)] = {
        var rows: [(String, String?)] = []
        for name in ["dates-examples.json", "dates-bsd-examples.json"] {
            guard case .array(let tests) = json(name) else { continue }
            for test in tests {
                guard case .string(let text)? = test["test"] else { continue }
                rows.append((text, test["expected"]?.stringValue))
            }
        }
        return rows
    }()

    @Test("RFC 6265's date algorithm on the http-state suite's 70 dates", arguments: dates)
    func date(text: String, expected: String?) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(CookieDate.parse(text).map(formatter.string(from:)) == expected)
    }

    @Test("the date suites are read whole")
    func datesRead() {
        #expect(Self.dates.count == 70)
    }

    @Test("domain cookies cannot name a public suffix; the request's own host may be one, as a host-only cookie")
    func publicSuffixes() {
        let jar = CookieJar()
        let url = URL(string: "https://shop.example.co.uk/")!
        jar.store(setCookie: ["a=1; Domain=co.uk", "b=2; Domain=.UK", "c=3; Domain=example.co.uk", "d=4; Domain=other.co.uk"], for: url)
        #expect(jar.cookies.map(\.name) == ["c"])
        #expect(jar.cookieHeader(for: URL(string: "https://www.example.co.uk/")!) == "c=3")
        #expect(jar.cookieHeader(for: URL(string: "https://evil.co.uk/")!) == nil)
        // github.io is a public suffix (a private section rule): one user's page cannot set
        // cookies for every other.
        jar.store(setCookie: ["e=5; Domain=github.io"], for: URL(string: "https://attacker.github.io/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://victim.github.io/")!) == nil)
        // A host that is itself a public suffix keeps a host-only cookie.
        jar.store(setCookie: ["f=6; Domain=github.io"], for: URL(string: "https://github.io/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://github.io/")!) == "f=6")
        #expect(jar.cookies.first { $0.name == "f" }?.hostOnly == true)
    }

    @Test("without the list, every single-label domain is a public suffix (curl's fallback)")
    func fallback() {
        let jar = CookieJar(publicSuffixes: .singleLabel)
        jar.store(setCookie: ["a=1; Domain=com", "b=2; Domain=example.com"], for: URL(string: "http://www.example.com/")!)
        #expect(jar.cookies.map(\.name) == ["b"])
    }

    @Test("host-only and domain cookies, default paths, and the Cookie header's order: longer paths, then creation")
    func matching() {
        let jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        jar.store(setCookie: ["host=1"], for: URL(string: "http://example.com/a/b/page")!, at: now)
        jar.store(setCookie: ["wide=2; Domain=example.com; Path=/"], for: URL(string: "http://example.com/")!, at: now.addingTimeInterval(1))
        jar.store(setCookie: ["deep=3; Path=/a/b/c"], for: URL(string: "http://example.com/")!, at: now.addingTimeInterval(2))
        jar.store(setCookie: ["early=4; Path=/a"], for: URL(string: "http://example.com/")!, at: now)
        #expect(jar.cookieHeader(for: URL(string: "http://example.com/a/b/c/d")!, at: now) == "deep=3; host=1; early=4; wide=2")
        // host=1's default path is /a/b: not sent to /a/bc or /a, nor to a subdomain.
        #expect(jar.cookieHeader(for: URL(string: "http://example.com/a/bc")!, at: now) == "early=4; wide=2")
        #expect(jar.cookieHeader(for: URL(string: "http://sub.example.com/a/b/x")!, at: now) == "wide=2")
        #expect(jar.cookieHeader(for: URL(string: "http://notexample.com/")!, at: now) == nil)
    }

    @Test("Max-Age wins over Expires; a past date or Max-Age=0 deletes; expiry is capped at 400 days")
    func expiry() throws {
        let jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let url = URL(string: "http://example.com/")!
        jar.store(setCookie: ["a=1; Expires=Wed, 01 Jan 2020 00:00:00 GMT; Max-Age=60"], for: url, at: now)
        #expect(jar.cookieHeader(for: url, at: now.addingTimeInterval(59)) == "a=1")
        #expect(jar.cookieHeader(for: url, at: now.addingTimeInterval(61)) == nil)
        jar.store(setCookie: ["b=1; Max-Age=600", "c=1"], for: url, at: now)
        jar.store(setCookie: ["b=; Max-Age=0", "c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], for: url, at: now)
        #expect(jar.cookieHeader(for: url, at: now) == nil)
        jar.store(setCookie: ["d=1; Max-Age=99999999999999999999", "e=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT"], for: url, at: now)
        let limit = now.addingTimeInterval(TimeInterval(CookieJar.maximumLifetime))
        #expect(jar.cookies.allSatisfy { $0.expires == limit })
        // Max-Age that is not a number is ignored: a session cookie.
        jar.store(setCookie: ["f=1; Max-Age=1e3", "g=1; Max-Age="], for: url, at: now)
        #expect(jar.cookies.filter { ["f", "g"].contains($0.name) }.allSatisfy { $0.expires == nil })
    }

    @Test("Secure cookies: set and sent over https and loopback only; an insecure origin cannot replace one; prefixes hold")
    func secure() {
        let jar = CookieJar()
        jar.store(setCookie: ["s=1; Secure"], for: URL(string: "http://example.com/")!)
        #expect(jar.cookies.isEmpty)
        jar.store(setCookie: ["s=1; Secure; HttpOnly; SameSite=Strict"], for: URL(string: "https://example.com/")!)
        #expect(jar.cookieHeader(for: URL(string: "http://example.com/")!) == nil)
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!) == "s=1")
        jar.store(setCookie: ["s=evil"], for: URL(string: "http://example.com/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://example.com/")!) == "s=1")
        #expect(jar.cookies.first?.httpOnly == true && jar.cookies.first?.sameSite == "Strict")
        jar.store(setCookie: ["__Secure-a=1", "__Host-b=1; Secure; Domain=example.com", "__Host-c=1; Secure; Path=/x", "__Host-ok=1; Secure; Path=/"], for: URL(string: "https://example.com/")!)
        #expect(jar.cookies.map(\.name).sorted() == ["__Host-ok", "s"])
        jar.store(setCookie: ["local=1; Secure"], for: URL(string: "http://127.0.0.1:8080/")!)
        #expect(jar.cookieHeader(for: URL(string: "http://127.0.0.1:8080/")!) == "local=1")
        // A name that merely starts like a loopback address is not one.
        jar.store(setCookie: ["spoof=1; Secure"], for: URL(string: "http://127.evil.example/")!)
        #expect(jar.cookieHeader(for: URL(string: "https://127.evil.example/")!) == nil)
    }

    @Test("a hostile server: controls, oversized cookies, bad domains and floods are refused or bounded")
    func hostileServer() {
        let jar = CookieJar(maximumCookies: 100, maximumCookiesPerDomain: 20)
        let url = URL(string: "http://example.com/")!
        jar.store(setCookie: [
            "a=1\u{0}x", "b\u{7F}=1", "c=1\tx", "=noname", "noequals", String(repeating: "n", count: 4000) + "=" + String(repeating: "v", count: 100),
            "d=1; Domain=example.com.evil.net", "e=1; Domain=evil.net", "f=1; Domain=127.0.0.1",
        ], for: url)
        #expect(jar.cookies.isEmpty)
        // Found by fuzzing: a tab or control in a Path or Domain split the line of a cookie file.
        jar.store(setCookie: ["p=1; Path=/a\tb", "q=1; Path=/a\u{4}b", "r=1; Domain=exa\tmple.com", "s=1\u{0}; Path=/"], for: url)
        #expect(jar.cookies.isEmpty)
        jar.insert(Cookie(name: "t", value: "a;b", domain: "example.com"))
        jar.insert(Cookie(name: "u=v", value: "1", domain: "example.com"))
        jar.insert(Cookie(name: "w", value: "1", domain: "example.com", path: "/a\nb"))
        #expect(jar.cookies.isEmpty)
        for index in 0..<50 { jar.store(setCookie: ["flood\(index)=1"], for: url, at: Date(timeIntervalSince1970: TimeInterval(1_700_000_000 + index))) }
        #expect(jar.cookies.count == 20)
        #expect(jar.cookies.contains { $0.name == "flood49" } && !jar.cookies.contains { $0.name == "flood0" })
        // IP hosts get host-only cookies only, never a parent "domain".
        let ip = URL(string: "http://10.0.0.1/")!
        jar.store(setCookie: ["g=1; Domain=0.0.1"], for: ip)
        #expect(jar.cookieHeader(for: URL(string: "http://10.0.0.1/")!) == nil)
    }

    @Test("names and values compare by code point: canonically equivalent names are two cookies")
    func codePoints() {
        let jar = CookieJar()
        let url = URL(string: "http://example.com/")!
        jar.store(setCookie: ["\u{E9}=composed", "e\u{301}=decomposed"], for: url)
        #expect(jar.cookies.count == 2)
    }

    @Test("one jar shared by many tasks at once: every store is kept, every read sees whole cookies")
    func concurrentUse() async {
        let jar = CookieJar(maximumCookies: 10_000, maximumCookiesPerDomain: 10_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let url = URL(string: "http://w\(worker).example.com/")!
                    for index in 0..<200 {
                        jar.store(setCookie: ["c\(index)=\(worker)-\(index)"], for: url)
                        _ = jar.cookieHeader(for: url)
                    }
                }
            }
        }
        #expect(jar.cookies.count == 1_600)
        #expect(jar.cookieHeader(for: URL(string: "http://w3.example.com/")!)?.contains("c199=3-199") == true)
    }
}
