import SluiceCore

/// YAML values as JSON values, by the YAML 1.2 core schema: what request `parameters` and
/// expected bodies are made of.
extension YAMLNode {
    /// The node as a JSON value. A plain scalar is null (`~`, `null`, empty), a Boolean
    /// (`true`/`false` in lower, title or upper case), an integer (decimal, `0x` hex, `0o` octal)
    /// or a float (with `.inf`, `-.inf`, `.nan`) when it reads as one, else a string; a quoted
    /// scalar, or one tagged `!!str`, is always a string. Mapping keys must be scalars.
    /// - Throws: `YAMLNode.SyntaxError` for a mapping key that is not a scalar.
    public func jsonValue() throws(YAMLNode.SyntaxError) -> JSONValue {
        try jsonValue { text, quoted, scalar throws(YAMLNode.SyntaxError) in
            if quoted || scalar.tag == "tag:yaml.org,2002:str" { return .string(text) }
            return YAMLNode.coreSchemaValue(text)
        }
    }

    /// The node as a JSON value whose scalars `scalar` reads (given each one's text, whether it
    /// was quoted, and the node): sequences become arrays, mappings objects with their keys as
    /// written.
    /// - Throws: `YAMLNode.SyntaxError` for a mapping key that is not a scalar, and what
    ///   `scalar` throws.
    package func jsonValue(
        scalars scalar: (String, Bool, YAMLNode) throws(YAMLNode.SyntaxError) -> JSONValue
    ) throws(YAMLNode.SyntaxError) -> JSONValue {
        switch content {
        case .scalar(let text, let quoted):
            return try scalar(text, quoted, self)
        case .sequence(let elements):
            var values: [JSONValue] = []
            for element in elements { values.append(try element.jsonValue(scalars: scalar)) }
            return .array(values)
        case .mapping(let pairs):
            var members: [(String, JSONValue)] = []
            for pair in pairs {
                guard let key = pair.key.scalar else {
                    throw YAMLNode.SyntaxError(message: "a mapping key must be a scalar to become JSON", mark: pair.key.mark)
                }
                members.append((key, try pair.value.jsonValue(scalars: scalar)))
            }
            return .object(JSONObject(members))
        }
    }

    /// A plain scalar by the YAML 1.2 core schema's resolution rules.
    package static func coreSchemaValue(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .int(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .int(value) }
        if let integer = JSONValue(integerText: text) { return integer }
        if isCoreFloat(text), let value = Double(text) { return .double(value) }
        return .string(text)
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`: YAML's core schema
    /// float without `.inf` and `.nan`, which is also what Rust's `f64` parsing (Hurl's) reads as a
    /// finite number.
    package static func isCoreFloat(_ text: String) -> Bool {
        var characters = Substring(text)
        if characters.first == "-" || characters.first == "+" { characters = characters.dropFirst() }
        let mantissaEnd = characters.firstIndex { $0 == "e" || $0 == "E" } ?? characters.endIndex
        let mantissa = characters[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            !(parts[0].isEmpty && (parts.count == 1 || parts[1].isEmpty))
        else { return false }
        guard mantissaEnd < characters.endIndex else { return true }
        var exponent = characters[characters.index(after: mantissaEnd)...]
        if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
