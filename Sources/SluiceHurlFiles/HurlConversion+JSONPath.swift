import SluiceStageRegistry

extension HurlConversion {
    /// A Hurl JSONPath as RFC 9535 writes it, the one pipeline files read. Hurl's parser also
    /// takes a dot before a bracket (`$.[0]`, `$.fruit.[?(@.US == 100)]`) and a dotted name with
    /// characters RFC 9535's shorthand does not allow (`$.profile-id`); these are written
    /// `$[0]` and `$['profile-id']`, which select the same nodes. The rest is left as written,
    /// and a `{{...}}` stays a template.
    mutating func jsonPathNode(_ expression: HurlTemplate) -> YAMLNode {
        var parts = expression.parts
        for index in parts.indices {
            guard case .literal(var literal) = parts[index] else { continue }
            literal.value = HurlConversion.rfc9535(literal.value)
            parts[index] = .literal(literal)
        }
        return templateNode(HurlTemplate(position: expression.position, parts: parts))
    }

    /// `path` with Hurl's dotted forms rewritten (see ``jsonPathNode(_:)``); text inside quotes
    /// and brackets is left alone.
    package static func rfc9535(_ path: String) -> String {
        let scalars = Array(path.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        var depth = 0
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                output.append(scalar)
                if scalar == "\\", index + 1 < scalars.count {
                    output.append(scalars[index + 1])
                    index += 1
                } else if scalar == open {
                    quote = nil
                }
                index += 1
                continue
            }
            switch scalar {
            case "'", "\"":
                quote = scalar
            case "[", "(":
                depth += 1
            case "]", ")":
                depth -= 1
            case "." where depth == 0:
                // `..` (descendants) stays; a single dot goes before a bracket (`.[0]` is `[0]`).
                let descendant = index + 1 < scalars.count && scalars[index + 1] == "."
                let after = index + (descendant ? 2 : 1)
                if descendant { output.append(contentsOf: "..".unicodeScalars) }
                var end = after
                while end < scalars.count, !".[ ".unicodeScalars.contains(scalars[end]) { end += 1 }
                let name = scalars[after..<end]
                if !name.isEmpty, name.first != "*", !isShorthand(name) {
                    // A name the shorthand does not take: `['name']`.
                    output.append(contentsOf: "['".unicodeScalars)
                    for character in name {
                        if character == "'" || character == "\\" { output.append("\\") }
                        output.append(character)
                    }
                    output.append(contentsOf: "']".unicodeScalars)
                    index = end
                    continue
                }
                if !descendant, after < scalars.count, scalars[after] == "[" {
                    index = after
                    continue
                }
                if descendant {
                    index = after
                    continue
                }
            default:
                break
            }
            output.append(scalar)
            index += 1
        }
        return String(output)
    }

    /// Whether RFC 9535's `member-name-shorthand` takes `name`: a letter, `_` or non-ASCII
    /// first, then those or digits.
    private static func isShorthand(_ name: ArraySlice<Unicode.Scalar>) -> Bool {
        func isFirst(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value >= 0x80 || scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        guard let first = name.first, isFirst(first) else { return false }
        return name.dropFirst().allSatisfy { isFirst($0) || ("0"..."9").contains($0) }
    }
}
