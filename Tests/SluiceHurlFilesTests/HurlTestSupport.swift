import SluiceHurlFiles
import Testing

/// Helpers shared by the parser tests.
enum HurlTestSupport {
    /// Parses `text`, which must hold exactly one entry, and returns it.
    static func entry(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HurlEntry {
        let file = try HurlFile.parse(text)
        #expect(file.entries.count == 1, sourceLocation: sourceLocation)
        return try #require(file.entries.first, sourceLocation: sourceLocation)
    }

    /// Parses one assert line placed in an `[Asserts]` section of a minimal entry.
    static func assertLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HurlAssert {
        let entry = try entry("GET http://localhost\nHTTP 200\n[Asserts]\n\(line)\n", sourceLocation: sourceLocation)
        let section = try #require(entry.response?.sections.first, sourceLocation: sourceLocation)
        guard case .asserts(let asserts) = section.content else {
            Issue.record("expected an [Asserts] section", sourceLocation: sourceLocation)
            throw HurlTestFailure()
        }
        #expect(asserts.count == 1, sourceLocation: sourceLocation)
        return try #require(asserts.first, sourceLocation: sourceLocation)
    }

    /// Parses one capture line placed in a `[Captures]` section of a minimal entry.
    static func captureLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HurlCapture {
        let entry = try entry("GET http://localhost\nHTTP 200\n[Captures]\n\(line)\n", sourceLocation: sourceLocation)
        let section = try #require(entry.response?.sections.first, sourceLocation: sourceLocation)
        guard case .captures(let captures) = section.content else {
            Issue.record("expected a [Captures] section", sourceLocation: sourceLocation)
            throw HurlTestFailure()
        }
        #expect(captures.count == 1, sourceLocation: sourceLocation)
        return try #require(captures.first, sourceLocation: sourceLocation)
    }

    /// Parses one option line placed in an `[Options]` section of a minimal entry.
    static func optionLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> HurlOption {
        let entry = try entry("GET http://localhost\n[Options]\n\(line)\n", sourceLocation: sourceLocation)
        let section = try #require(entry.request.sections.first, sourceLocation: sourceLocation)
        guard case .options(let options) = section.content else {
            Issue.record("expected an [Options] section", sourceLocation: sourceLocation)
            throw HurlTestFailure()
        }
        #expect(options.count == 1, sourceLocation: sourceLocation)
        return try #require(options.first, sourceLocation: sourceLocation)
    }

    /// The syntax error `text` raises, or `nil` when it parses.
    static func syntaxError(_ text: String) -> HurlSyntaxError? {
        do {
            _ = try HurlFile.parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// Expects `text` to fail at `line`:`column` with `message`.
    static func expectError(
        _ text: String,
        line: Int,
        column: Int,
        message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            syntaxError(text) == HurlSyntaxError(line: line, column: column, message: message),
            sourceLocation: sourceLocation
        )
    }

    /// A template holding only literal text, at `position`.
    static func literal(_ text: String, at position: HurlSourcePosition) -> HurlTemplate {
        HurlTemplate(
            position: position,
            parts: text.isEmpty ? [] : [.literal(HurlTemplateLiteral(position: position, value: text, source: text))]
        )
    }

    /// A quoted-string template `"text"` whose opening quote is at `line`:`column`.
    static func quoted(_ text: String, line: Int, column: Int) -> HurlTemplate {
        HurlTemplate(
            position: HurlSourcePosition(line: line, column: column),
            parts: text.isEmpty
                ? []
                : [
                    .literal(
                        HurlTemplateLiteral(
                            position: HurlSourcePosition(line: line, column: column + 1),
                            value: text,
                            source: text
                        )
                    )
                ]
        )
    }
}

/// Thrown by test helpers after recording an issue.
struct HurlTestFailure: Error {}

extension HurlSourcePosition {
    /// Shorthand for tests.
    static func at(_ line: Int, _ column: Int) -> HurlSourcePosition {
        HurlSourcePosition(line: line, column: column)
    }
}
