import SluiceCore
import SluiceStageRegistry

extension VariableScope {
    /// A raw JSON body with its references filled in by Hurl's rule for JSON bodies: a reference
    /// that stands as a whole JSON value (`{"id": ${id}}`) is written as JSON, keeping its type (a
    /// typed value as it is; a text one typed as Hurl types it (``typedText(_:)``), so `--var n=2` writes
    /// `2` and a string is quoted and escaped), and one inside a JSON string
    /// (`{"label": "order ${id}"}`) is its text, escaped for the string, so a value holding a `"`
    /// or a `\` cannot break the document out of its string.
    /// - Throws: `TemplateString.SyntaxError` or `TemplateString.UndefinedVariable`.
    public func renderJSONBody(_ text: String) throws -> String {
        let template = try TemplateString(parsing: text)
        var output = ""
        var inString = false
        var escaped = false
        for part in template.parts {
            let value: String
            switch part {
            case .literal(let literal):
                output += literal
                for scalar in literal.unicodeScalars {
                    if escaped {
                        escaped = false
                    } else if inString && scalar == "\\" {
                        escaped = true
                    } else if scalar == "\"" {
                        inString.toggle()
                    }
                }
                continue
            case .variable(let name):
                guard let text = values[name] else { throw TemplateString.UndefinedVariable(name: name) }
                if !inString, let typed = typedValues[name] {
                    output += try JSONWriter().string(from: typed)
                    continue
                }
                value = text
            case .environment(let name):
                guard let text = environment[name] else { throw TemplateString.UndefinedVariable(name: "env." + name) }
                value = text
            case .function(let function):
                value = try function.evaluate(variables: values, environment: environment, standIns: standIns)
            }
            if inString {
                output += String(try JSONWriter().string(from: .string(value)).dropFirst().dropLast())
            } else {
                output += try JSONWriter().string(from: VariableScope.typedText(value))
            }
        }
        return output
    }
}
