import Foundation
import SluiceCore
import SluiceStageRegistry

extension HurlConversion {
    /// A template as pipeline text: literal text as it is (a `${` in it written `$${`), each
    /// `{{name}}` as `${name}`, Hurl's functions as the pipeline's (`newUuid` as `${uuid}`).
    mutating func template(_ template: HurlTemplate) -> String {
        var text = ""
        for part in template.parts {
            switch part {
            case .literal(let literal): text += literal.value.replacingCodePoints(of: "${", with: "$${")
            case .expression(let expression): text += self.expression(expression) ?? ""
            }
        }
        return text
    }

    /// A `{{...}}` expression as a pipeline template, or `nil` (refused) when it has none.
    mutating func expression(_ expression: HurlTemplateExpression) -> String? {
        guard expression.filters.isEmpty else {
            refuse(expression.position, "filters inside {{...}} have no pipeline spelling yet; capture the value with its filters instead")
            return nil
        }
        switch expression.source {
        case .variable(let name):
            return "${\(name)}"
        case .function(.newUuid, _):
            return "${uuid}"
        case .function(.newDate, _):
            return "${now}"
        case .function(.getEnv, let arguments):
            guard arguments.count == 1, case .string(let name) = arguments[0].kind, let literal = name.literalValue else {
                refuse(expression.position, "getEnv takes the name of an environment variable, as a string")
                return nil
            }
            return "${env.\(literal)}"
        case .function(let function, let arguments):
            return randomCall(function, arguments, at: expression.position).map { "${\($0)}" }
        }
    }

    /// Hurl's `random*` functions as the pipeline's calls (`randomInt 10 99` as
    /// `random-int(10, 99)`), without `${` and `}`; `nil` (refused) for anything else.
    mutating func randomCall(_ function: HurlFunction, _ arguments: [HurlValue], at position: HurlSourcePosition) -> String? {
        let integers = arguments.compactMap { argument -> String? in
            if case .integer(let digits) = argument.kind { return digits }
            return nil
        }
        switch function {
        case .randomBool: return arguments.isEmpty ? "random-bool()" : nil
        case .randomEmail: return arguments.isEmpty ? "random-email()" : nil
        case .randomFirstName: return arguments.isEmpty ? "random-first-name()" : nil
        case .randomLastName: return arguments.isEmpty ? "random-last-name()" : nil
        case .randomFullName: return arguments.isEmpty ? "random-full-name()" : nil
        case .randomWord: return arguments.isEmpty ? "random-word()" : nil
        case .randomInt where integers.count == 2 && arguments.count == 2: return "random-int(\(integers[0]), \(integers[1]))"
        case .randomString where integers.count == 1 && arguments.count == 1: return "random-string(\(integers[0]))"
        default:
            refuse(position, "the function \(function.rawValue) takes other arguments, or has no pipeline spelling")
            return nil
        }
    }

    /// A template as a quoted scalar.
    mutating func templateNode(_ template: HurlTemplate) -> YAMLNode {
        HurlConversion.text(self.template(template), at: template.position)
    }

    /// A file's path: as written (the converted file sits beside the Hurl file, and reads it from
    /// its own folder), or under `--file-root` when one is given.
    mutating func pathNode(_ template: HurlTemplate) -> YAMLNode {
        let path = self.template(template)
        guard let root = defaults.fileRoot, !path.hasPrefix("/") else { return HurlConversion.text(path, at: template.position) }
        return HurlConversion.text(URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(path).path, at: template.position)
    }

    /// An operand of a predicate: numbers, Booleans and null plain (typed), strings quoted,
    /// `{{name}}` as `"${name}"` (the variable's typed value), bytes as `{hex: ...}` or
    /// `{base64: ...}`, a GraphQL string as the JSON Hurl sends for it.
    mutating func value(_ value: HurlValue) -> YAMLNode {
        let position = value.position
        switch value.kind {
        case .null: return HurlConversion.plain("null", at: position)
        case .boolean(let flag): return HurlConversion.plain(flag ? "true" : "false", at: position)
        case .integer(let digits), .float(let digits): return HurlConversion.plain(digits, at: position)
        case .string(let written), .unquotedString(let written), .onelineString(let written): return templateNode(written)
        case .multilineString(let multiline):
            return multiline.language == .graphql ? graphqlComparand(multiline, at: position) : templateNode(multiline.content)
        case .base64(let text): return HurlConversion.node(["base64": HurlConversion.text(HurlConversion.compact(text), at: position)], at: position)
        case .hex(let text): return HurlConversion.node(["hex": HurlConversion.text(HurlConversion.compact(text), at: position)], at: position)
        case .expression(let expression): return HurlConversion.text(self.expression(expression) ?? "", at: position)
        case .regex(let regex): return HurlConversion.text(regex.pattern, at: position)
        case .file(let name):
            return fileBytes(name, at: position)
        }
    }

    /// The bytes of a `file,NAME;` to compare with, read now from the Hurl file's folder and
    /// written as `{base64: ...}`. As Hurl's file root, the folder bounds what may be read: a
    /// name that leads outside it (`../../etc/passwd`, an absolute path, a symbolic link out) is
    /// refused, so a Hurl file cannot put another file's bytes into a report.
    mutating func fileBytes(_ name: HurlTemplate, at position: HurlSourcePosition) -> YAMLNode {
        guard let path = name.literalValue else {
            refuse(position, "a file to compare with is named without {{...}}")
            return HurlConversion.plain("null", at: position)
        }
        let root = (directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).resolvingSymlinksInPath().standardizedFileURL
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)).resolvingSymlinksInPath().standardizedFileURL
        guard url.path.hasPrefix(root.path.hasSuffix("/") ? root.path : root.path + "/") else {
            refuse(position, "the file \(path) is outside the Hurl file's folder, which bounds what a Hurl file may read")
            return HurlConversion.plain("null", at: position)
        }
        guard let bytes = try? Data(contentsOf: url) else {
            refuse(position, "cannot read the file \(path) to compare with")
            return HurlConversion.plain("null", at: position)
        }
        return HurlConversion.node(["base64": HurlConversion.text(bytes.base64EncodedString(), at: position)], at: position)
    }

    /// Base64 or hex text without the spaces and line breaks Hurl allows in it.
    static func compact(_ text: String) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }

    /// A JSON body's text as written, Hurl sending it byte for byte: each `{{...}}` in it, in
    /// order, as the expression it holds (`${name}`), and a `${` of its own as `$${`.
    mutating func jsonSource(_ source: String, of value: HurlJSONValue) -> String {
        var expressions = jsonExpressions(value).makeIterator()
        var text = ""
        var rest = Substring(source)
        while let open = rest.range(of: "{{") {
            text += rest[..<open.lowerBound].replacingCodePoints(of: "${", with: "$${")
            guard let close = rest[open.upperBound...].range(of: "}}"), let expression = expressions.next() else {
                text += rest[open.lowerBound...]
                return text
            }
            text += self.expression(expression) ?? ""
            rest = rest[close.upperBound...]
        }
        return text + rest.replacingCodePoints(of: "${", with: "$${")
    }

    /// The `{{...}}` expressions of a JSON value, in the order they are written.
    func jsonExpressions(_ value: HurlJSONValue) -> [HurlTemplateExpression] {
        func ofTemplate(_ template: HurlTemplate) -> [HurlTemplateExpression] {
            template.parts.compactMap { if case .expression(let expression) = $0 { expression } else { nil } }
        }
        switch value.kind {
        case .object(let members): return members.flatMap { ofTemplate($0.key) + jsonExpressions($0.value) }
        case .array(let elements): return elements.flatMap(jsonExpressions)
        case .string(let written): return ofTemplate(written)
        case .expression(let expression): return [expression]
        case .number, .boolean, .null: return []
        }
    }

    /// JSON as compact text, as it was written: numbers and strings as written (escapes kept),
    /// each `{{...}}` as `${...}` where it stands (a whole value is the variable's JSON value, as
    /// Hurl inserts it; inside a string its text). A GraphQL variables block, and a JSON body
    /// whose text the parser did not keep.
    mutating func jsonText(_ value: HurlJSONValue) -> String {
        switch value.kind {
        case .object(let members):
            return "{" + members.map { jsonString($0.key) + ":" + jsonText($0.value) }.joined(separator: ",") + "}"
        case .array(let elements):
            return "[" + elements.map { jsonText($0) }.joined(separator: ",") + "]"
        case .string(let written): return jsonString(written)
        case .number(let digits): return digits
        case .boolean(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .expression(let expression): return self.expression(expression) ?? "null"
        }
    }

    /// A JSON string as written between its quotes, each `{{...}}` as `${...}` inside it.
    private mutating func jsonString(_ written: HurlTemplate) -> String {
        var text = "\""
        for part in written.parts {
            switch part {
            case .literal(let literal): text += literal.source.replacingCodePoints(of: "${", with: "$${")
            case .expression(let expression): text += self.expression(expression) ?? ""
            }
        }
        return text + "\""
    }
}
