import Testing
@testable import SluiceCore
@testable import SluiceCurl

@Suite("Response head parsing")
struct ResponseHeadParserTests {
    private func parse(_ lines: [String]) -> (ResponseHeadParser, [ResponseHeadParser.Event]) {
        var parser = ResponseHeadParser()
        var events: [ResponseHeadParser.Event] = []
        for line in lines {
            var bytes = Array(line.utf8)
            if let event = bytes.withUnsafeMutableBytes({ parser.consume(UnsafeRawBufferPointer($0)) }) {
                events.append(event)
            }
        }
        return (parser, events)
    }

    @Test("status, version and fields of an HTTP/1.1 head; white space trimmed")
    func http11() {
        let (parser, events) = parse(["HTTP/1.1 200 OK\r\n", "Content-Type:  text/plain \r\n", "X-Empty:\r\n", "\r\n"])
        #expect(parser.status == 200)
        #expect(parser.version == .http1_1)
        #expect(parser.headers.fields == [.init(name: "Content-Type", value: "text/plain"), .init(name: "X-Empty", value: "")])
        #expect(events == [.finalStatus(200), .headComplete])
        #expect(parser.isComplete)
    }

    @Test("a field value or reason phrase that is not UTF-8 is read as ISO-8859-1, byte for character: no byte becomes U+FFFD, so values that differ stay apart")
    func latin1Values() {
        var parser = ResponseHeadParser()
        for line: [UInt8] in [Array("HTTP/1.1 200 Caf".utf8) + [0xE9, 0x0D, 0x0A], Array("X-A: caf".utf8) + [0xE9, 0x0D, 0x0A], Array("X-B: caf".utf8) + [0xC3, 0xA9, 0x0D, 0x0A],
            Array("X-C: ".utf8) + [0xFF, 0xFE, 0x0D, 0x0A], Array("X-D: ".utf8) + [0xFE, 0xFF, 0x0D, 0x0A], [0x0D, 0x0A]]
        {
            var bytes = line
            _ = bytes.withUnsafeMutableBytes { parser.consume(UnsafeRawBufferPointer($0)) }
        }
        #expect(parser.reasonPhrase?.unicodeScalars.elementsEqual("Café".unicodeScalars) == true)
        #expect(parser.headers["X-A"]?.unicodeScalars.elementsEqual("café".unicodeScalars) == true)
        #expect(parser.headers["X-B"]?.unicodeScalars.elementsEqual("café".unicodeScalars) == true)
        #expect(parser.headers["X-C"]?.unicodeScalars.elementsEqual("\u{FF}\u{FE}".unicodeScalars) == true)
        #expect(parser.headers["X-C"]?.unicodeScalars.elementsEqual(parser.headers["X-D"]?.unicodeScalars ?? "".unicodeScalars) == false)
    }

    @Test("an HTTP/2 status line has no reason phrase")
    func http2() {
        let (parser, _) = parse(["HTTP/2 204 \r\n", "\r\n"])
        #expect(parser.status == 204)
        #expect(parser.version == .http2)
    }

    @Test("interim 1xx heads are dropped and the final head replaces them")
    func interimResponses() {
        let (parser, events) = parse(["HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n", "HTTP/1.1 201 Created\r\n", "Location: /x\r\n", "\r\n"])
        #expect(parser.status == 201)
        #expect(parser.headers.fields == [.init(name: "Location", value: "/x")])
        #expect(events == [.finalStatus(201), .headComplete])
    }

    @Test("a proxy's CONNECT answer is replaced by the origin's response")
    func connectThenResponse() {
        let (parser, _) = parse(["HTTP/1.1 200 Connection established\r\n", "\r\n", "HTTP/1.1 404 Not Found\r\n", "A: b\r\n", "\r\n"])
        #expect(parser.status == 404)
        #expect(parser.headers["a"] == "b")
    }

    @Test("folded continuation lines join the previous field; trailers after the head are ignored")
    func foldingAndTrailers() {
        let (parser, _) = parse(["HTTP/1.1 200 OK\r\n", "X-Long: one\r\n", "\t two\r\n", "\r\n", "X-Trailer: t\r\n"])
        #expect(parser.headers.fields == [.init(name: "X-Long", value: "one two")])
    }

    @Test("a field folded over 100,000 lines is one value, built in place (it was copied whole for each line: quadratic)")
    func manyFoldedLines() {
        let lines = ["HTTP/1.1 200 OK\r\n", "X-First: 1\r\n", "X-Folded: a\r\n"] + Array(repeating: " bb\r\n", count: 100_000)
            + ["X-Last: z\r\n", " y\r\n"]
        let (parser, events) = parse(lines)
        #expect(events == [.finalStatus(200)])
        #expect(parser.headers.count == 3, "a field still open is part of the head read so far")
        #expect(parser.headers["X-Last"] == "z y")
        let (complete, _) = parse(lines + ["\r\n"])
        #expect(complete.headers["X-Folded"]?.utf8.count == 1 + 100_000 * 3)
        #expect(complete.headers.fields.map(\.name) == ["X-First", "X-Folded", "X-Last"])
    }

    @Test("a status of three digits below 100, or with a sign, is no status (found by fuzzing: \"004\" read as 4)")
    func statusOutOfRange() {
        for line in ["HTTP/1.1 004 Odd\r\n", "HTTP/1.1 +20 Odd\r\n", "HTTP/1.1 099 Odd\r\n"] {
            let (parser, events) = parse([line, "A: b\r\n", "\r\n"])
            #expect(parser.status == nil, "\(line)")
            #expect(events.isEmpty)
        }
        #expect(parse(["HTTP/1.1 999 Custom\r\n", "\r\n"]).0.status == 999)
    }

    @Test("a continuation line of white space only adds nothing (found by fuzzing: it left a trailing space)")
    func blankContinuation() {
        let (parser, _) = parse(["HTTP/1.1 200 OK\r\n", "X-Folded: a\r\n", "  \r\n", "\t\r\n", "\r\n"])
        #expect(parser.headers.fields == [.init(name: "X-Folded", value: "a")])
    }

    @Test("malformed lines are skipped, never fatal")
    func malformed() {
        let (parser, events) = parse(["HTTP/1.1 20 OK\r\n", "no colon here\r\n", "HTTP/1.1 200 OK\r\n", ": no name\r\n", "no colon\r\n", "Good: yes\r\n", "\r\n"])
        #expect(parser.status == 200)
        #expect(parser.headers.fields == [.init(name: "Good", value: "yes")])
        #expect(events == [.finalStatus(200), .headComplete])
    }
}
