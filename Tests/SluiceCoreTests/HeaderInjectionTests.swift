import Foundation
import Testing
@testable import SluiceCore

@Suite("header-injection")
struct HeaderInjectionTests {
    let english = ["LANG": "en_US.UTF-8"]

    @Test("pipeline headers never replace the request's own, compared without case")
    func requestWins() async throws {
        let stage = HeaderInjection(
            headers: ["Accept": "application/json", "X-Team": "core"], userAgent: .custom("pipeline-agent"),
            authorization: .bearer("pipeline-token"), environment: english
        )
        let request = Request(url: exampleURL, headers: ["accept": "text/plain", "user-agent": "mine", "AUTHORIZATION": "Bearer own"])
        let (sent, _) = try await send(request, through: [stage])
        #expect(sent.headers.values(for: "Accept") == ["text/plain"])
        #expect(sent.headers.values(for: "User-Agent") == ["mine"])
        #expect(sent.headers.values(for: "Authorization") == ["Bearer own"])
        #expect(sent.headers["X-Team"] == "core")
        #expect(sent.headers["Accept-Language"] == "en-US;q=1.0")
    }

    @Test("User-Agent is sluice/VERSION (OS; ARCH) by default, or none, or one's own")
    func userAgent() {
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: system.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #expect(HeaderInjection.defaultUserAgent == "sluice/\(SluiceVersion.current) (Linux; \(machine))")
        #expect(HeaderInjection(environment: english).injectedHeaders["User-Agent"] == HeaderInjection.defaultUserAgent)
        #expect(HeaderInjection(userAgent: .none, environment: english).injectedHeaders["User-Agent"] == nil)
        #expect(HeaderInjection(userAgent: .custom("me/1"), environment: english).injectedHeaders["User-Agent"] == "me/1")
        #expect(HeaderInjection(headers: ["user-agent": "from-headers"], environment: english).injectedHeaders.values(for: "User-Agent") == ["from-headers"])
    }

    @Test("an empty user agent leaves the header out, so a stage below adds none; a request's remove-headers keeps out what the stage injects")
    func omittedHeaders() async throws {
        let empty = HeaderInjection(userAgent: .custom(""), acceptLanguage: .none)
        let below = HeaderInjection(headers: ["X-Team": "core"], userAgent: .custom("below/1"), acceptLanguage: .none)
        let (sent, _) = try await send(Request(url: exampleURL), through: [empty, below])
        #expect(sent.headers["User-Agent"] == nil && sent.omittedHeaders == ["User-Agent"] && sent.headers["X-Team"] == "core")
        let (own, _) = try await send(Request(url: exampleURL, headers: ["User-Agent": "own/2"]), through: [empty, below])
        #expect(own.headers.values(for: "User-Agent") == ["own/2"] && own.omittedHeaders.isEmpty)
        var removing = Request(url: exampleURL)
        removing.omittedHeaders = ["x-team", "USER-AGENT"]
        let (removed, _) = try await send(removing, through: [below])
        #expect(removed.headers.fields.isEmpty)
    }

    static let languages: [([String: String], String)] = [
        (["LANG": "de_DE.UTF-8"], "de-DE;q=1.0"),
        (["LANGUAGE": "fr_CA:fr:en", "LANG": "de_DE.UTF-8"], "fr-CA;q=1.0, fr;q=0.9, en;q=0.8"),
        (["LC_ALL": "pt_BR.UTF-8@variant", "LANG": "de_DE"], "pt-BR;q=1.0"),
        (["LANGUAGE": "", "LC_ALL": "", "LANG": "sv_SE"], "sv-SE;q=1.0"),
        (["LANGUAGE": "a:b:c:d:e:f:g"], "a;q=1.0, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6"),
        (["LANG": "C.UTF-8"], "en;q=1.0"),
        (["LANG": "POSIX"], "en;q=1.0"),
        ([:], "en;q=1.0"),
        (["LANGUAGE": "de:de:en"], "de;q=1.0, en;q=0.9"),
    ]

    @Test("Accept-Language from LANGUAGE, LC_ALL, LANG: q 1.0, then 0.1 less each, stopping above 0.5", arguments: languages)
    func acceptLanguage(environment: [String: String], expected: String) {
        #expect(HeaderInjection.acceptLanguage(environment: environment) == expected)
        #expect(HeaderInjection(environment: environment).injectedHeaders["Accept-Language"] == expected)
    }

    @Test("Accept-Language can be none or one's own")
    func acceptLanguageChoices() {
        #expect(HeaderInjection(acceptLanguage: .none).injectedHeaders["Accept-Language"] == nil)
        #expect(HeaderInjection(acceptLanguage: .custom("da, en-GB;q=0.8")).injectedHeaders["Accept-Language"] == "da, en-GB;q=0.8")
    }

    @Test("Authorization: Basic is base64 of UTF-8 user:password, Bearer the token")
    func authorization() {
        #expect(HeaderInjection.Authorization.basic(username: "Aladdin", password: "open sesame").headerValue == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(HeaderInjection.Authorization.basic(username: "test", password: "123£").headerValue == "Basic dGVzdDoxMjPCow==")
        #expect(HeaderInjection.Authorization.bearer("abc.def").headerValue == "Bearer abc.def")
        #expect(HeaderInjection(authorization: .bearer("t")).injectedHeaders["Authorization"] == "Bearer t")
        #expect("\(HeaderInjection.Authorization.bearer("secret"))" == "Bearer ***", "printing credentials never shows them")
    }
}
