/// Writes a `JSONValue` as JSON text: object members in their order, integers without a fraction,
/// doubles in their shortest exact form (`2.0`, `0.1`, `1e-07`), non-ASCII characters as UTF-8.
public struct JSONWriter: Sendable {
    /// Whether to indent nested values by two spaces, one member or element per line, down to
    /// ``maximumIndentedDepth``; values nested deeper are written compactly, so that the text of
    /// a deep document grows with its size, not with its size times its depth.
    public var prettyPrinted: Bool

    /// The deepest level a pretty-printed document is indented to: a server's body 500 arrays
    /// deep would otherwise take a line and 1,000 spaces for each bracket.
    public static let maximumIndentedDepth = 32

    /// Creates a writer; compact by default.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
    }

    /// The JSON text as UTF-8 bytes. Throws for a NaN or infinite number, which JSON cannot hold.
    public func data(from value: JSONValue) throws(UnencodableValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        var path = KeyPath()
        try write(value, to: &output, indent: 0, path: &path)
        return output
    }

    /// The JSON text. Throws for a NaN or infinite number, which JSON cannot hold.
    public func string(from value: JSONValue) throws(UnencodableValue) -> String {
        String(decoding: try data(from: value), as: UTF8.self)
    }

    private func newline(_ output: inout [UInt8], indent: Int) {
        guard prettyPrinted, indent <= Self.maximumIndentedDepth else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: indent * 2))
    }

    private func write(_ value: JSONValue, to output: inout [UInt8], indent: Int, path: inout KeyPath) throws(UnencodableValue) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let int): output.append(contentsOf: String(int).utf8)
        case .double(let double):
            guard double.isFinite else {
                throw UnencodableValue(path: path.description, reason: "\(double) is not a number JSON can hold")
            }
            output.append(contentsOf: double.description.utf8)
        case .bigInteger(let digits): output.append(contentsOf: digits.utf8)
        case .string(let string): JSONWriter.writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent: indent + 1)
                path.push(.index(index))
                try write(element, to: &output, indent: indent + 1, path: &path)
                path.pop()
            }
            if !elements.isEmpty, indent < Self.maximumIndentedDepth { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent: indent + 1)
                JSONWriter.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if prettyPrinted { output.append(0x20) }
                path.push(.key(member.key))
                try write(member.value, to: &output, indent: indent + 1, path: &path)
                path.pop()
            }
            if !object.isEmpty, indent < Self.maximumIndentedDepth { newline(&output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a string with the escapes JSON requires: quote, backslash, and control characters.
    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                output.append(contentsOf: ("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
