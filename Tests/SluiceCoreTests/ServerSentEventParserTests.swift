import Foundation
import Testing

@testable import SluiceCore

/// The event-stream parser against the web-platform-tests' format cases, the HTML standard's own
/// examples, and what a hostile server would send.
@Suite("Server-sent events: parsing as the HTML standard says")
struct ServerSentEventParserTests {
    struct Case: Decodable, CustomTestStringConvertible {
        struct Event: Decodable {
            let type: String
            let data: String
            let lastEventID: String
            let retry: Int?
        }

        let name: String
        let source: String
        let stream: String
        let events: [Event]
        let retry: Int?

        var testDescription: String { name }
    }

    static let cases: [Case] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-eventsource/cases.json")
        struct Cases: Decodable { let cases: [Case] }
        return (try? JSONDecoder().decode(Cases.self, from: Data(contentsOf: file)).cases) ?? []
    }()

    private func parse(_ bytes: [UInt8], pieceSize: Int) throws -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieceSize)
            events += try parser.consume(bytes[start..<end])
            start = end
        }
        return (events, parser)
    }

    @Test("the web-platform-tests' 27 stream cases are read")
    func suiteRead() {
        #expect(Self.cases.count == 27)
    }

    @Test("each web-platform-tests format case, whole and one byte at a time", arguments: cases)
    func wpt(_ testCase: Case) throws {
        let bytes = Array(testCase.stream.utf8)
        for pieceSize in [bytes.count, 1, 7] {
            let (events, parser) = try parse(bytes, pieceSize: pieceSize)
            #expect(events.map(\.type) == testCase.events.map(\.type), "\(testCase.source)")
            #expect(events.map(\.data).map { Array($0.utf8) } == testCase.events.map(\.data).map { Array($0.utf8) }, "\(testCase.source)")
            #expect(events.map(\.lastEventID) == testCase.events.map(\.lastEventID))
            #expect(events.map(\.retry) == testCase.events.map { $0.retry.map(Duration.milliseconds) })
            #expect(parser.reconnectionTime == testCase.retry.map(Duration.milliseconds))
        }
    }

    @Test("the last event ID changes at a blank line only: an id in a block the stream cut off is not kept, an id in a block without data is")
    func lastEventIDAtDispatch() throws {
        let cut = try parse(Array("id: 1\ndata: a\n\nid: 2\ndata: b".utf8), pieceSize: 1)
        #expect(cut.events.map(\.lastEventID) == ["1"])
        #expect(cut.parser.lastEventID == "1")
        let noData = try parse(Array("id: 1\ndata: a\n\nid: 3\n\n".utf8), pieceSize: 2)
        #expect(noData.events.count == 1 && noData.parser.lastEventID == "3")
        var resumed = ServerSentEventParser(lastEventID: "9")
        #expect(try resumed.consume(Array("data: x\n\n".utf8)).map(\.lastEventID) == ["9"])
    }

    @Test("the HTML standard's examples (section 9.2.6)")
    func standardExamples() throws {
        let stock = try parse(Array("data: YHOO\ndata: +2\ndata: 10\n\n".utf8), pieceSize: 100).events
        #expect(stock.map(\.data) == ["YHOO\n+2\n10"])
        // "id" with no value resets the last event ID; the last block has no blank line and is lost.
        let four = try parse(Array(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n".utf8), pieceSize: 3).events
        #expect(four.map(\.data) == ["first event", "second event"])
        #expect(four.map(\.lastEventID) == ["1", ""])
        let empty = try parse(Array("data\n\ndata\ndata\n\ndata:".utf8), pieceSize: 1).events
        #expect(empty.map(\.data) == ["", "\n"])
        let same = try parse(Array("data:test\n\ndata: test\n\n".utf8), pieceSize: 1).events
        #expect(same.map(\.data) == ["test", "test"])
    }

    @Test("CR, LF and CRLF end lines, a CRLF split between pieces included")
    func lineEnds() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.consume(Array("data:a\r".utf8)).isEmpty)
        #expect(try parser.consume(Array("\ndata:b\r\r".utf8)).map(\.data) == ["a\nb"])
        #expect(try parser.consume(Array("data:c\n\r\n".utf8)).map(\.data) == ["c"])
    }

    @Test("an id persists across events, an id with U+0000 is ignored, and an event without data is not dispatched but its id counts")
    func ids() throws {
        let events = try parse(Array("id: 7\ndata:a\n\ndata:b\n\nid: 8\0\ndata:c\n\nid: 9\n\ndata:d\n\n".utf8), pieceSize: 5).events
        #expect(events.map(\.data) == ["a", "b", "c", "d"])
        #expect(events.map(\.lastEventID) == ["7", "7", "7", "9"])
    }

    @Test("retry takes ASCII digits only: signs, spaces inside and other digits are ignored; a huge value is capped at a day")
    func retryValues() throws {
        for text in ["+100", "-1", "1 0", "１００", "", "1e3"] {
            let parser = try parse(Array("retry:\(text)\ndata:x\n\n".utf8), pieceSize: 4).parser
            #expect(parser.reconnectionTime == nil, "\(text)")
        }
        #expect(try parse(Array("retry: 0\n\n".utf8), pieceSize: 4).parser.reconnectionTime == .zero)
        #expect(try parse(Array("retry:99999999999999999999999\n\n".utf8), pieceSize: 4).parser.reconnectionTime == .seconds(86_400))
    }

    @Test("field names and values are bytes: no canonical equivalence, no case folding")
    func byteExactNames() throws {
        let decomposed = "cafe\u{301}"
        let events = try parse(Array("event: \(decomposed)\nDATA:x\ndata:\(decomposed)\n\n".utf8), pieceSize: 2).events
        #expect(events.count == 1)
        #expect(Array(events[0].type.utf8) == Array(decomposed.utf8))
        #expect(Array(events[0].data.utf8) == Array(decomposed.utf8))
        #expect(events[0].type.utf8.count == 6)
    }

    @Test("invalid UTF-8 becomes U+FFFD, never a crash")
    func invalidUTF8() throws {
        let events = try parse([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0xC3, 0x0A, 0x0A], pieceSize: 1).events
        #expect(events.map(\.data) == ["\u{FFFD}\u{FFFD}"])
    }

    @Test("attack: a line or an event's data past the limit fails the stream with .protocolError instead of growing")
    func limits() throws {
        var parser = ServerSentEventParser(maxEventSize: 1024)
        let endless = [UInt8](repeating: UInt8(ascii: "x"), count: 2048)
        let error = #expect(throws: SluiceError.self) { _ = try parser.consume(Array("data:".utf8) + endless) }
        #expect(error?.kind == .protocolError)
        var many = ServerSentEventParser(maxEventSize: 1024)
        let lines = Array(String(repeating: "data:0123456789\n", count: 100).utf8)
        let dataError = #expect(throws: SluiceError.self) { _ = try many.consume(lines) }
        #expect(dataError?.message.contains("data of one event") == true)
    }
}
