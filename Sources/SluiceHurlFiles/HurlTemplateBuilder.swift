/// Accumulates literal text and expressions into a ``HurlTemplate``, merging adjacent text.
struct HurlTemplateBuilder {
    private let position: HurlSourcePosition
    private var parts: [HurlTemplate.Part] = []
    private var literalPosition: HurlSourcePosition?
    private var literalValue = String.UnicodeScalarView()
    private var literalSource = String.UnicodeScalarView()

    init(position: HurlSourcePosition) {
        self.position = position
    }

    /// Appends literal text: its decoded value and its source as written.
    mutating func appendLiteral(value: String, source: String, at position: HurlSourcePosition) {
        if literalPosition == nil {
            literalPosition = position
        }
        literalValue.append(contentsOf: value.unicodeScalars)
        literalSource.append(contentsOf: source.unicodeScalars)
    }

    /// Appends one scalar written as itself.
    mutating func appendScalar(_ scalar: Unicode.Scalar, at position: HurlSourcePosition) {
        if literalPosition == nil {
            literalPosition = position
        }
        literalValue.append(scalar)
        literalSource.append(scalar)
    }

    /// Removes the last `count` scalars, which were appended as themselves.
    mutating func dropLastScalars(_ count: Int) {
        guard count > 0 else { return }
        literalValue.removeLast(min(count, literalValue.count))
        literalSource.removeLast(min(count, literalSource.count))
        if literalSource.isEmpty {
            literalPosition = nil
        }
    }

    mutating func appendExpression(_ expression: HurlTemplateExpression) {
        flushLiteral()
        parts.append(.expression(expression))
    }

    mutating func build() -> HurlTemplate {
        flushLiteral()
        return HurlTemplate(position: position, parts: parts)
    }

    private mutating func flushLiteral() {
        guard let literalPosition else { return }
        parts.append(
            .literal(
                HurlTemplateLiteral(
                    position: literalPosition,
                    value: String(literalValue),
                    source: String(literalSource)
                )
            )
        )
        self.literalPosition = nil
        literalValue = String.UnicodeScalarView()
        literalSource = String.UnicodeScalarView()
    }
}
