/// XML bodies, read as text up to the end of the root element.
extension HurlParser {
    /// Reads an XML document (prolog, comments, then one root element) and returns it as written.
    mutating func parseXML() throws(HurlSyntaxError) -> String {
        let start = scanner.checkpoint
        let position = scanner.position
        var depth = 0
        while true {
            guard let next = scanner.peek() else {
                throw expected("the end of the XML document started at \(position)")
            }
            if next != "<" {
                if depth == 0, !(next.isHurlSpace || next.isHurlNewline) {
                    throw expected("an XML element")
                }
                scanner.advance()
                continue
            }
            if scanner.startsWith("<?") {
                try skipXML(until: "?>", startedAt: position)
            } else if scanner.startsWith("<!--") {
                try skipXML(until: "-->", startedAt: position)
            } else if scanner.startsWith("<![CDATA[") {
                try skipXML(until: "]]>", startedAt: position)
            } else if scanner.startsWith("<!") {
                try skipXML(until: ">", startedAt: position)
            } else if scanner.startsWith("</") {
                try skipXML(until: ">", startedAt: position)
                depth -= 1
                if depth <= 0 { break }
            } else if try skipXMLStartTag(startedAt: position) {
                if depth == 0 { break }
            } else {
                depth += 1
            }
        }
        return scanner.text(since: start)
    }

    private mutating func skipXML(until terminator: String, startedAt position: HurlSourcePosition) throws(HurlSyntaxError) {
        while !scanner.consume(terminator) {
            guard scanner.advance() != nil else {
                throw expected("`\(terminator)` in the XML document started at \(position)")
            }
        }
    }

    /// Skips a start tag and returns whether it closes itself (`<a/>`).
    private mutating func skipXMLStartTag(startedAt position: HurlSourcePosition) throws(HurlSyntaxError) -> Bool {
        scanner.advance()
        var quote: Unicode.Scalar?
        var previous: Unicode.Scalar = "<"
        while let next = scanner.advance() {
            if let open = quote {
                if next == open { quote = nil }
            } else if next == "\"" || next == "'" {
                quote = next
            } else if next == ">" {
                return previous == "/"
            }
            previous = next
        }
        throw expected("`>` to close a tag of the XML document started at \(position)")
    }
}
