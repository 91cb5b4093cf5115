import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// `${NAME}` templates and template functions: parsed or refused with a position inside the text;
/// a parsed template renders from a scope that defines every name it uses, and its literal text
/// survives.
enum TemplateFuzz {
    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let template: TemplateString
        do {
            template = try TemplateString(parsing: text)
        } catch {
            require(error.offset >= 0 && error.offset <= text.utf8.count, "error offset \(error.offset) outside '\(text)'")
            return
        }
        let values = Dictionary(template.variables.map { ($0, "<\($0)>") }, uniquingKeysWith: { first, _ in first })
        let environment = Dictionary(template.environmentVariables.map { ($0, "[\($0)]") }, uniquingKeysWith: { first, _ in first })
        let rendered: String
        do {
            rendered = try template.render(variables: values, environment: environment)
        } catch {
            preconditionFailure("every name was defined, yet rendering '\(text)' failed: \(error)")
        }
        if template.isLiteral {
            require(!contains(rendered, "${") || contains(text, "$${"), "literal '\(text)' rendered as '\(rendered)'")
        }
        // A name written as ${NAME} shows its value; one that is a function's argument shows what
        // the function made of it.
        for case .variable(let name) in template.parts {
            require(contains(rendered, "<\(name)>"), "'\(text)' rendered without ${\(name)}: '\(rendered)'")
        }
    }

    /// Whether `part`'s code points occur in `text`: `String.contains` matches whole characters, so
    /// `<a>` followed by a combining mark would not contain `<a>` (found by fuzzing).
    private static func contains(_ text: String, _ part: String) -> Bool {
        text.utf8.firstRange(of: part.utf8) != nil
    }
}
