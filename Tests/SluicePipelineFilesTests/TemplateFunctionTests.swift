import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("Template functions: ${uuid}, ${now}, ${timestamp}, ${random-int(a,b)}, encodings")
struct TemplateFunctionTests {
    static func render(_ text: String, _ variables: [String: String] = [:], environment: [String: String] = [:]) throws -> String {
        try TemplateString(parsing: text).render(variables: variables, environment: environment)
    }

    @Test("base64 and base64url follow RFC 4648's test vectors (section 10); urlencode keeps only the unreserved characters")
    func encodings() throws {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (input, output) in vectors {
            #expect(try TemplateFunctionTests.render("${base64(v)}", ["v": input]) == output)
            #expect(try TemplateFunctionTests.render("${base64url(v)}", ["v": input]) == output.replacingOccurrences(of: "=", with: ""))
        }
        // U+FBFF is EF AF BF in UTF-8: '+' and '/' in base64, '-' and '_' in base64url.
        #expect(try TemplateFunctionTests.render("${base64(v)}", ["v": "\u{FBFF}"]) == "76+/")
        #expect(try TemplateFunctionTests.render("${base64url(v)}", ["v": "\u{FBFF}"]) == "76-_")
        #expect(try TemplateFunctionTests.render("${base64('user:pa ss')}") == "dXNlcjpwYSBzcw==")
        #expect(try TemplateFunctionTests.render("${base64(env.K)}", environment: ["K": "key"]) == "a2V5")
        #expect(try TemplateFunctionTests.render("q=${urlencode(v)}", ["v": "a b&c=d/é~"]) == "q=a%20b%26c%3Dd%2F%C3%A9~")
    }

    @Test("uuid is a random version 4 UUID; random-int stays in its bounds; each rendering computes afresh")
    func randomValues() throws {
        let first = try TemplateFunctionTests.render("${uuid}")
        let second = try TemplateFunctionTests.render("${uuid()}")
        #expect(first != second)
        #expect(first.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        for _ in 0..<200 {
            let value = try #require(Int(try TemplateFunctionTests.render("${random-int(-2, 3)}")))
            #expect((-2...3).contains(value))
        }
        #expect(try TemplateFunctionTests.render("${random-int(5,5)}") == "5")
    }

    @Test("random-bool, random-string, the names, random-email and random-word: each call its own value, of the shape documented; a call may be another's argument")
    func randomData() throws {
        let booleans = Set(try (0..<64).map { _ in try TemplateFunctionTests.render("${random-bool()}") })
        #expect(booleans == ["true", "false"])
        let string = try TemplateFunctionTests.render("${random-string(32)}")
        #expect(string.count == 32 && string.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        #expect(try TemplateFunctionTests.render("${random-string(32)}") != string, "each call its own value")
        #expect(RandomNames.first.count == 1000 && RandomNames.last.count == 1000 && RandomNames.first.first == "Mary" && RandomNames.last.first == "Smith")
        #expect(RandomNames.first.contains(try TemplateFunctionTests.render("${random-first-name()}")))
        #expect(RandomNames.last.contains(try TemplateFunctionTests.render("${random-last-name()}")))
        let full = try TemplateFunctionTests.render("${random-full-name()}").split(separator: " ").map(String.init)
        #expect(full.count == 2 && RandomNames.first.contains(full[0]) && RandomNames.last.contains(full[1]))
        let email = try TemplateFunctionTests.render("${random-email()}")
        #expect(email.wholeMatch(of: /[a-z]+\.[a-z]+\.[0-9]{4}@example\.com/) != nil, "\(email)")
        let word = try TemplateFunctionTests.render("${random-word()}")
        #expect(word.count >= 3 && RandomWords.list.contains(word))
        let encoded = try TemplateFunctionTests.render("${urlencode(random-full-name())}")
        #expect(encoded.contains("%20") && !encoded.contains(" "))
        #expect(try TemplateFunctionTests.render("${base64(random-int(7, 7))}") == "Nw==", "a nested call with its own commas")
        for (written, message) in [
            ("${random-bool(1)}", "random-bool takes no arguments"),
            ("${random-string(0)}", "random-string takes a length from 1 to 65536"),
            ("${random-string(x)}", "random-string takes a length from 1 to 65536"),
        ] {
            #expect(throws: TemplateString.SyntaxError.self, "\(written)") { try TemplateString(parsing: written) }
            do { _ = try TemplateString(parsing: written) } catch { #expect(error.message.contains(message), "\(error.message)") }
        }
    }

    @Test("now is ISO 8601 in UTC to the second, timestamp is Unix seconds; both take an offset")
    func time() throws {
        // `date -u -d @1795000000 +%FT%TZ` prints 2026-11-18T11:06:40Z.
        let instant = Date(timeIntervalSince1970: 1_795_000_000)
        func evaluate(_ text: String) throws -> String {
            guard case .function(let function) = try TemplateString(parsing: text).parts[0] else { throw TemplateString.UndefinedVariable(name: text) }
            return try function.evaluate(variables: [:], environment: [:], now: instant)
        }
        #expect(try evaluate("${now}") == "2026-11-18T11:06:40Z")
        #expect(try evaluate("${now(-1h)}") == "2026-11-18T10:06:40Z")
        #expect(try evaluate("${now(+2d)}") == "2026-11-20T11:06:40Z")
        #expect(try evaluate("${timestamp}") == "1795000000")
        #expect(try evaluate("${timestamp(+30m)}") == "1795001800")
        #expect(try evaluate("${timestamp(-1500ms)}") == "1794999998")
        let now = try TemplateFunctionTests.render("${now}")
        #expect(ISO8601DateFormatter().date(from: now) != nil)
    }

    @Test("the arguments, those of nested calls too, count as references, so a pipeline checks them at load time and hides a secret one; bad calls are syntax errors")
    func references() throws {
        let template = try TemplateString(parsing: "${base64(user)}:${urlencode(env.PASS)}")
        #expect(template.variables == ["user"])
        #expect(template.environmentVariables == ["PASS"])
        // A nested call's arguments count too: an undefined one is found at load, a secret one hidden.
        let nested = try TemplateString(parsing: "${base64(text(env.TOKEN))}${urlencode(base64(text(id)))}")
        #expect(nested.variables == ["id"])
        #expect(nested.environmentVariables == ["TOKEN"])
        #expect(VariableScope(environment: ["TOKEN": "s3cr3t-value"]).isSecret(nested))
        let cases: [(String, String)] = [
            ("${uuid(1)}", "uuid takes no arguments"),
            ("${now(yesterday)}", "'yesterday' is not an offset"),
            ("${random-int(3, 1)}", "random-int takes two whole numbers, the lower first"),
            ("${base64(a, b)}", "base64 takes one argument"),
            ("${base64('open)}", "a quoted argument has no closing '"),
            ("${sha256(x)}", "'sha256' is not a template function"),
            ("${base64(a b)}", "'a b' is not an argument of base64"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: TemplateString.SyntaxError.self, "\(text)") { try TemplateString(parsing: text) }
            #expect(error?.message.hasPrefix(message) == true, "\(text): \(error?.message ?? "")")
        }
    }

    @Test("the base64 and base64url forms of a secret are redacted like the secret itself")
    func redaction() throws {
        let redactor = Redactor(secrets: ["s3cr3t-value"])
        let encoded = try TemplateFunctionTests.render("Basic ${base64(k)} ${base64url(k)} ${urlencode(k)}", ["k": "s3cr3t-value"])
        #expect(redactor.redact(encoded) == "Basic *** *** ***")
    }
}
