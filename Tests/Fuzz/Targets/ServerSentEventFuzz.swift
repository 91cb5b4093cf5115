import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// Event streams from a hostile server, in pieces of every size: the parser never crashes, never
/// holds more than its limit, and the events it gives do not depend on where the pieces break
/// (a CR at the end of one piece and an LF at the start of the next are one line end).
enum ServerSentEventFuzz {
    static func run(_ input: [UInt8]) {
        let limit = 256
        var whole = ServerSentEventParser(maxEventSize: limit)
        let wholeEvents = try? whole.consume(input)
        let pieceSize = Int(input.first ?? 1) % 7 + 1
        var pieces = ServerSentEventParser(maxEventSize: limit)
        var pieceEvents: [ServerSentEvent]? = []
        var start = 0
        while start < input.count, pieceEvents != nil {
            let end = min(input.count, start + pieceSize)
            do {
                pieceEvents! += try pieces.consume(input[start..<end])
            } catch {
                pieceEvents = nil
            }
            start = end
        }
        guard let wholeEvents, let pieceEvents else {
            require((wholeEvents == nil) == (pieceEvents == nil), "the limit tripped in one reading and not the other")
            return
        }
        require(wholeEvents == pieceEvents, "pieces of \(pieceSize) bytes gave other events than the whole input")
        require(whole.lastEventID == pieces.lastEventID, "the last event ID depends on the pieces")
        for event in wholeEvents {
            require(event.data.utf8.count <= limit * 3, "an event's data passed the limit")
            require(!event.type.isEmpty, "an event with no type")
            require(!event.lastEventID.unicodeScalars.contains("\u{0}"), "an id with U+0000 was taken")
        }
    }
}
