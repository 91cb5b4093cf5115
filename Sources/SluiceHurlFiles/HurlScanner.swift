/// A cursor over a Hurl file's Unicode scalars that tracks line and column.
///
/// CRLF line endings are read as LF and a leading byte order mark is skipped.
struct HurlScanner {
    /// A saved cursor state, to go back after a look-ahead.
    struct Checkpoint {
        fileprivate let index: Int
        fileprivate let position: HurlSourcePosition
    }

    private let scalars: [Unicode.Scalar]
    private(set) var index = 0
    private(set) var position = HurlSourcePosition(line: 1, column: 1)

    init(text: String) {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            if previousWasCarriageReturn, scalar != "\n" {
                scalars.append("\r")
            }
            previousWasCarriageReturn = scalar == "\r"
            if !previousWasCarriageReturn {
                scalars.append(scalar)
            }
        }
        if previousWasCarriageReturn {
            scalars.append("\r")
        }
        if scalars.first == "\u{FEFF}" {
            scalars.removeFirst()
        }
        self.scalars = scalars
    }

    var isAtEnd: Bool { index >= scalars.count }

    var checkpoint: Checkpoint { Checkpoint(index: index, position: position) }

    mutating func restore(_ checkpoint: Checkpoint) {
        index = checkpoint.index
        position = checkpoint.position
    }

    /// The scalar `offset` places ahead, or `nil` past the end.
    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let target = index + offset
        return target < scalars.count ? scalars[target] : nil
    }

    /// Consumes and returns the next scalar.
    @discardableResult
    mutating func advance() -> Unicode.Scalar? {
        guard index < scalars.count else { return nil }
        let scalar = scalars[index]
        index += 1
        if scalar == "\n" {
            position = HurlSourcePosition(line: position.line + 1, column: 1)
        } else {
            position.column += 1
        }
        return scalar
    }

    /// Whether the text ahead starts with `literal`.
    func startsWith(_ literal: String) -> Bool {
        var offset = 0
        for scalar in literal.unicodeScalars {
            guard peek(offset) == scalar else { return false }
            offset += 1
        }
        return true
    }

    /// Consumes `literal` if the text ahead starts with it.
    mutating func consume(_ literal: String) -> Bool {
        guard startsWith(literal) else { return false }
        for _ in literal.unicodeScalars {
            advance()
        }
        return true
    }

    /// Consumes scalars while `predicate` holds and returns them.
    mutating func consume(while predicate: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while let scalar = peek(), predicate(scalar) {
            text.append(scalar)
            advance()
        }
        return String(text)
    }

    /// The scalars ahead while `predicate` holds, without consuming them.
    func lookAhead(while predicate: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        var offset = 0
        while let scalar = peek(offset), predicate(scalar) {
            text.append(scalar)
            offset += 1
        }
        return String(text)
    }

    /// The text between a checkpoint and the current position.
    func text(since checkpoint: Checkpoint) -> String {
        guard checkpoint.index < index else { return "" }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[checkpoint.index..<index])
        return String(text)
    }
}
