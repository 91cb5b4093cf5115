import Foundation
import SluiceCore
import SluiceStageRegistry

/// GraphQL strings (```` ```graphql ````), which Hurl sends as the JSON object
/// `{"query":"QUERY"}`, with `,"variables":{...}` when the string ends with a `variables` block.
extension HurlConversion {
    /// A GraphQL request body: the JSON Hurl sends, as a `body:` with
    /// `Content-Type: application/json` unless the entry sets one. The runner renders `${...}` in
    /// a JSON body by Hurl's rule (inside a string JSON-escaped, as a whole value typed), so a
    /// variable holding a `"` or a line break still makes valid JSON; it does so only when the
    /// request's `Content-Type` is JSON, so a GraphQL body with `{{...}}` under a `Content-Type`
    /// that is not JSON (or that is itself a template) is refused.
    mutating func graphqlBody(_ multiline: HurlMultilineString, at position: HurlSourcePosition, headers: inout [(String, YAMLNode)], into rest: inout [(String, YAMLNode)]) {
        if hasExpressions(multiline), let header = headers.first(where: { $0.0.lowercased() == "content-type" }) {
            let value = header.1.scalar
            guard let value, !value.contains("${"), MediaType(parsing: value)?.isJSON == true else {
                refuse(position, "a GraphQL body with {{...}} is sent only with a JSON Content-Type: the pipeline escapes ${...} for a JSON string only in a JSON body")
                return
            }
        }
        rest.append(("body", HurlConversion.text(graphqlJSON(multiline), at: position)))
        if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headers.append(("Content-Type", HurlConversion.text("application/json", at: position)))
        }
    }

    /// A GraphQL string to compare a response with: the JSON Hurl would send, as text. A check
    /// renders `${...}` as text, not JSON-escaped, so one with `{{...}}` is refused.
    mutating func graphqlComparand(_ multiline: HurlMultilineString, at position: HurlSourcePosition) -> YAMLNode {
        guard !hasExpressions(multiline) else {
            refuse(position, "a GraphQL string with {{...}} to compare with has no pipeline spelling yet: a check does not JSON-escape ${...}")
            return HurlConversion.plain("null", at: position)
        }
        return HurlConversion.text(graphqlJSON(multiline), at: position)
    }

    /// The JSON text Hurl sends for a GraphQL string, in pipeline text: the query without the
    /// whitespace around it, JSON-escaped, each `{{...}}` in it as `${...}` inside the JSON string;
    /// the variables block compact, its strings as written. Hurl trims the query once rendered;
    /// this trims the text written around it, so a value that starts or ends the query keeps its
    /// own surrounding whitespace.
    mutating func graphqlJSON(_ multiline: HurlMultilineString) -> String {
        var text = #"{"query":""#
        for part in HurlConversion.trimmed(multiline.content.parts) {
            switch part {
            case .literal(let literal):
                let escaped = ((try? JSONWriter().string(from: .string(literal.value))) ?? #""""#).dropFirst().dropLast()
                text += escaped.replacingCodePoints(of: "${", with: "$${")
            case .expression(let expression):
                text += self.expression(expression) ?? ""
            }
        }
        text += "\""
        if let variables = multiline.graphqlVariables {
            text += #","variables":"# + jsonText(variables)
        }
        return text + "}"
    }

    /// Whether a GraphQL string's query or variables hold a `{{...}}`.
    private func hasExpressions(_ multiline: HurlMultilineString) -> Bool {
        multiline.content.parts.contains { if case .expression = $0 { true } else { false } }
            || !(multiline.graphqlVariables.map(jsonExpressions) ?? []).isEmpty
    }

    /// Template parts without the whitespace (Unicode's `White_Space`, as Rust's `trim`) at the
    /// start of the first literal part and the end of the last one.
    private static func trimmed(_ parts: [HurlTemplate.Part]) -> [HurlTemplate.Part] {
        var parts = parts
        if case .literal(var literal)? = parts.first {
            literal.value = String(String.UnicodeScalarView(literal.value.unicodeScalars.drop { $0.properties.isWhitespace }))
            parts[0] = .literal(literal)
        }
        if case .literal(var literal)? = parts.last {
            var scalars = Substring(literal.value).unicodeScalars
            while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
            literal.value = String(scalars)
            parts[parts.count - 1] = .literal(literal)
        }
        return parts
    }
}
