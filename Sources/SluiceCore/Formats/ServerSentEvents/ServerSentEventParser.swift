import Foundation

/// Parses a `text/event-stream` body as the HTML standard says ("Interpreting an event stream",
/// section 9.2.6), piece by piece as it arrives.
///
/// - The stream is UTF-8 whatever its `Content-Type` says; invalid sequences become U+FFFD. One
///   byte order mark at the very start is dropped (a second one is part of the first field name).
/// - Lines end with CRLF, LF or CR, also when a CRLF is split between two pieces.
/// - A blank line dispatches the event; a line starting with `:` is a comment. A field's value
///   loses one leading space. Field names are compared byte for byte, never by canonical
///   equivalence: `data`, `event`, `id` (ignored when it holds U+0000), `retry` (ASCII digits only).
/// - An event with no `data` field is not dispatched, but its `id` still counts. What follows the
///   last blank line when the stream ends is discarded, its `id` included: the last event ID
///   changes only at a blank line (the standard's "dispatch the event", step 1), so a
///   reconnection never claims an event it did not receive.
///
/// Limits guard against a hostile server: a line, or an event's data, past `maxEventSize` bytes
/// fails the stream with `.protocolError` rather than growing without end.
public struct ServerSentEventParser: Sendable {
    /// The most bytes a line, or the data of one event, may hold.
    public let maxEventSize: Int
    /// The reconnection time the stream last set with a `retry` field; `nil` when it set none.
    public private(set) var reconnectionTime: Duration?
    /// The event source's last event ID: the latest `id` field of a block that ended with a blank
    /// line, kept across events; what a reconnection sends as `Last-Event-ID`.
    public private(set) var lastEventID = ""
    /// The last event ID buffer: the latest `id` field read, committed to ``lastEventID`` at the
    /// next blank line.
    private var idBuffer = ""

    private var line: [UInt8] = []
    private var sawCarriageReturn = false
    private var atStreamStart = true
    private var data: [UInt8] = []
    private var hasData = false
    private var type: [UInt8] = []
    private var retryInBlock: Duration?
    private var ready: [ServerSentEvent] = []

    /// 1 MiB: the default for ``maxEventSize``.
    public static let defaultMaxEventSize = 1 << 20

    /// Creates a parser for one connection's stream. `lastEventID` carries the ID a reconnection
    /// started from, so events without an `id` of their own report it.
    public init(maxEventSize: Int = ServerSentEventParser.defaultMaxEventSize, lastEventID: String = "") {
        self.maxEventSize = maxEventSize
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Takes the next bytes of the stream and returns the events they completed, in order.
    /// - Throws: `.protocolError` when a line or an event's data passes ``maxEventSize``.
    public mutating func consume(_ bytes: some Sequence<UInt8>) throws(SluiceError) -> [ServerSentEvent] {
        for byte in bytes {
            if atStreamStart {
                // The BOM is three bytes, EF BB BF; any other start ends the check.
                if line.count < 3, byte == [0xEF, 0xBB, 0xBF][line.count] {
                    line.append(byte)
                    if line.count == 3 {
                        line.removeAll(keepingCapacity: true)
                        atStreamStart = false
                    }
                    continue
                }
                atStreamStart = false
            }
            switch byte {
            case UInt8(ascii: "\n"):
                if sawCarriageReturn {
                    sawCarriageReturn = false
                } else {
                    try endLine()
                }
            case UInt8(ascii: "\r"):
                try endLine()
                sawCarriageReturn = true
            default:
                sawCarriageReturn = false
                guard line.count < maxEventSize else {
                    throw tooLarge("a line of the event stream")
                }
                line.append(byte)
            }
        }
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    private func tooLarge(_ what: String) -> SluiceError {
        SluiceError(kind: .protocolError, message: "\(what) passed \(maxEventSize) bytes; the event stream was stopped there")
    }

    private mutating func endLine() throws(SluiceError) {
        defer { line.removeAll(keepingCapacity: true) }
        if atStreamStart { atStreamStart = false }
        guard let first = line.first else {
            dispatch()
            return
        }
        if first == UInt8(ascii: ":") { return }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        if name.elementsEqual("data".utf8) {
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
            guard data.count <= maxEventSize else { throw tooLarge("the data of one event") }
        } else if name.elementsEqual("event".utf8) {
            type = Array(value)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) {
                idBuffer = String(decoding: value, as: UTF8.self)
            }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) {
                // Capped, so that a hostile value cannot overflow: a day at most.
                let milliseconds = value.count > 9 ? 86_400_000 : min(Int(String(decoding: value, as: UTF8.self))!, 86_400_000)
                reconnectionTime = .milliseconds(milliseconds)
                retryInBlock = reconnectionTime
            }
        }
    }

    private mutating func dispatch() {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type.removeAll(keepingCapacity: true)
            retryInBlock = nil
        }
        guard hasData else { return }
        ready.append(ServerSentEvent(
            type: type.isEmpty ? "message" : String(decoding: type, as: UTF8.self),
            data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID,
            retry: retryInBlock
        ))
    }
}
