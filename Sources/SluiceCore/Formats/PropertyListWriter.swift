/// Writes a `JSONValue` as an XML property list, as AFPropertyListRequestSerializer sends it.
///
/// Objects become `<dict>` with keys in their order, arrays `<array>`, strings `<string>`,
/// integers `<integer>`, other numbers `<real>`, Booleans `<true/>`/`<false/>`. A property list
/// has no null, and XML 1.0 cannot hold most control characters: both are errors naming the value.
public struct PropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The property list as UTF-8 XML.
    /// - Throws: `UnencodableValue` for a `null`, or a string with a control character XML cannot hold.
    public func data(from value: JSONValue) throws(UnencodableValue) -> [UInt8] {
        var output = Array(PropertyListWriter.header.utf8)
        var path = KeyPath()
        try write(value, to: &output, depth: 0, path: &path)
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    private static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    private func write(_ value: JSONValue, to output: inout [UInt8], depth: Int, path: inout KeyPath) throws(UnencodableValue) {
        let indent = [UInt8](repeating: 0x09, count: depth)
        output.append(contentsOf: indent)
        switch value {
        case .null:
            throw UnencodableValue(path: path.description, reason: "a property list cannot hold null")
        case .bool(let bool):
            output.append(contentsOf: (bool ? "<true/>" : "<false/>").utf8)
        case .int(let int):
            output.append(contentsOf: "<integer>\(int)</integer>".utf8)
        case .bigInteger(let digits):
            output.append(contentsOf: "<integer>\(digits)</integer>".utf8)
        case .double(let double):
            let text = double.isNaN ? "nan" : double.isInfinite ? (double > 0 ? "+infinity" : "-infinity") : double.description
            output.append(contentsOf: "<real>\(text)</real>".utf8)
        case .string(let string):
            output.append(contentsOf: "<string>".utf8)
            try PropertyListWriter.writeEscaped(string, to: &output, path: path)
            output.append(contentsOf: "</string>".utf8)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "<array/>".utf8)
                break
            }
            output.append(contentsOf: "<array>\n".utf8)
            for (index, element) in elements.enumerated() {
                path.push(.index(index))
                try write(element, to: &output, depth: depth + 1, path: &path)
                path.pop()
            }
            output.append(contentsOf: indent + Array("</array>".utf8))
        case .object(let object):
            guard !object.isEmpty else {
                output.append(contentsOf: "<dict/>".utf8)
                break
            }
            output.append(contentsOf: "<dict>\n".utf8)
            for member in object {
                path.push(.key(member.key))
                output.append(contentsOf: indent + [0x09] + Array("<key>".utf8))
                try PropertyListWriter.writeEscaped(member.key, to: &output, path: path)
                output.append(contentsOf: "</key>\n".utf8)
                try write(member.value, to: &output, depth: depth + 1, path: &path)
                path.pop()
            }
            output.append(contentsOf: indent + Array("</dict>".utf8))
        }
        output.append(0x0A)
    }

    private static func writeEscaped(_ text: String, to output: inout [UInt8], path: KeyPath) throws(UnencodableValue) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case 0x09, 0x0A, 0x0D: output.append(byte)
            case 0x00..<0x20, 0x7F:
                throw UnencodableValue(
                    path: path.description,
                    reason: "control character 0x\(String(byte, radix: 16, uppercase: true)) cannot be written in an XML property list"
                )
            default: output.append(byte)
            }
        }
    }
}
