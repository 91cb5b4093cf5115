import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceJSONPath

/// The RFC 9535 JSONPath Compliance Test Suite (Tests/Fixtures/jsonpath-compliance-test-suite),
/// every one of its 703 tests, against ``JSONPath``.
@Suite("JSONPath compliance test suite (RFC 9535)")
struct JSONPathComplianceTests {
    /// One test of the suite.
    struct Case {
        let name: String
        let selector: String
        let document: JSONValue?
        /// The allowed results: one, or several where the order of the nodes is not fixed.
        let results: [[JSONValue]]
        let invalid: Bool
    }

    static let suite: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jsonpath-compliance-test-suite/cts.json")
        guard let data = FileManager.default.contents(atPath: url.path),
            case .array(let tests)? = (try? JSONReader().value(from: data))?["tests"]
        else { return [] }
        return tests.compactMap { test in
            guard case .object(let fields) = test, case .string(let name)? = fields["name"],
                case .string(let selector)? = fields["selector"]
            else { return nil }
            var results: [[JSONValue]] = []
            if case .array(let result)? = fields["result"] { results = [result] }
            if case .array(let allowed)? = fields["results"] {
                results = allowed.compactMap { if case .array(let result) = $0 { result } else { nil } }
            }
            let invalid = fields["invalid_selector"] == .bool(true)
            return Case(name: name, selector: selector, document: fields["document"], results: results, invalid: invalid)
        }
    }()

    /// Why a test fails, or `nil` when it passes.
    static func failure(of test: Case) -> String? {
        let query: JSONPath
        do {
            query = try JSONPath(test.selector)
        } catch {
            return test.invalid ? nil : "refused a valid selector: \(error)"
        }
        guard !test.invalid else { return "accepted an invalid selector" }
        guard let document = test.document else { return "the test has no document" }
        do {
            let nodes = try query.select(in: document)
            return test.results.contains(nodes) ? nil : "selected \(nodes), expected \(test.results.first ?? [])"
        } catch {
            return "failed to select: \(error)"
        }
    }

    @Test("the suite is read whole: 703 tests")
    func suiteIsRead() {
        #expect(Self.suite.count == 703)
    }

    @Test("every test of the suite passes: valid selectors give the expected nodes in an allowed order, invalid ones are refused")
    func compliance() {
        let failures = Self.suite.compactMap { test in
            Self.failure(of: test).map { "\(test.name) [\(test.selector)]: \($0)" }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.suite.count) fail:\n\(failures.joined(separator: "\n"))")
    }
}
