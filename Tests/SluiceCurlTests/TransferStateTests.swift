import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl

/// The libcurl transfer's decisions, without libcurl or a socket: pauses, the limits on the head
/// and the body, and how an exchange's end becomes its error.
/// The state machine with a caller that is a name: what a phase holds is checked without a task.
typealias TestState = TransferState<String>

@Suite("A transfer's state: pauses, limits, and its end, apart from libcurl")
struct TransferStateTests {
    static let url = URL(string: "https://api.test/items")!

    static func state(limit: Int64? = nil) -> TestState {
        TestState(url: url, maxResponseSize: limit)
    }

    static func ending(
        code: Int = 7, cause: TestState.Ending.Cause = .other, kind: SluiceError.Kind = .connect,
        message: String = "Couldn't connect to server", presented: (reason: String?, certificates: [X509Certificate])? = nil,
        proxyRefusal: String? = nil
    ) -> TestState.Ending {
        TestState.Ending(code: code, cause: cause, kind: kind, message: message, presented: presented, proxyRefusal: proxyRefusal)
    }

    static func pauses(_ state: inout TestState, _ change: TestState.PauseChange) -> TestState.Pauses {
        state.pauses(after: change)
    }

    static func line(_ text: String, into state: inout TestState) -> ResponseHeadParser.Event?? {
        Array(text.utf8).withUnsafeBytes { state.takeHeadLine($0) }
    }

    @Test("a suspended task holds both directions whatever the body's reader and producer want; resumed, only theirs")
    func pauses() {
        var state = TransferStateTests.state()
        #expect(TransferStateTests.pauses(&state, .receiveResumed) == [])
        state.receiverFellBehind()
        #expect(TransferStateTests.pauses(&state, .taskSuspended(true)) == [.receive, .send])
        #expect(TransferStateTests.pauses(&state, .receiveResumed) == [.receive, .send])
        state.receiverFellBehind()
        state.producerFellBehind()
        #expect(TransferStateTests.pauses(&state, .taskSuspended(false)) == [.receive, .send])
        #expect(TransferStateTests.pauses(&state, .sendResumed) == [.receive])
        #expect(TransferStateTests.pauses(&state, .receiveResumed) == [])
    }

    @Test("the head is parsed line by line and stopped past 300 KiB, interim responses counted")
    func headLimit() {
        var state = TransferStateTests.state()
        #expect(TransferStateTests.line("HTTP/1.1 100 Continue\r\n", into: &state) == .some(nil))
        #expect(TransferStateTests.line("\r\n", into: &state) == .some(nil))
        #expect(TransferStateTests.line("HTTP/1.1 200 OK\r\n", into: &state) == .some(.finalStatus(200)))
        let field = "X-Filler: " + String(repeating: "a", count: 1014) + "\r\n"
        var taken = 0
        while case .some = TransferStateTests.line(field, into: &state) { taken += 1 }
        #expect(taken == 299)
        #expect(state.headBytes > TestState.maxHeadSize)
        #expect(state.failure?.kind == .protocolError)
        #expect(state.failure?.message == "the response's header fields passed 300 KiB; the exchange was stopped there")
        #expect(!state.head.isComplete)
    }

    @Test("the wire limit is max-response-size for a plain body, and a little more for a coded one; none before the head ends")
    func wireLimit() {
        var plain = TransferStateTests.state(limit: 1000)
        let beforeHead = plain.admitsWireBytes(5000)
        #expect(beforeHead)
        _ = plain.headEnded(codings: [], hasBody: true)
        #expect(plain.rawBodyLimit == 1000)
        let whole = plain.admitsWireBytes(1000)
        plain.countWireBytes(999)
        let last = plain.admitsWireBytes(1)
        let past = plain.admitsWireBytes(2)
        #expect(whole && last && !past)
        #expect(plain.failure?.kind == .responseTooLarge)

        var coded = TransferStateTests.state(limit: 1000)
        _ = coded.headEnded(codings: [.gzip], hasBody: true)
        #expect(coded.rawBodyLimit == Int64(1000 + 1000 / 256 + 4096))
        let codedWhole = coded.admitsWireBytes(5099)
        let codedPast = coded.admitsWireBytes(5100)
        #expect(codedWhole && !codedPast)

        var unlimited = TransferStateTests.state()
        _ = unlimited.headEnded(codings: [.zstd], hasBody: true)
        let any = unlimited.admitsWireBytes(Int.max / 2)
        #expect(unlimited.rawBodyLimit == nil && any)
    }

    @Test("decoded bytes count against max-response-size; the bytes that would pass it are not counted")
    func decodedLimit() {
        var state = TransferStateTests.state(limit: 1000)
        let first = state.takesDecodedBytes(600)
        let second = state.takesDecodedBytes(401)
        #expect(first && !second)
        #expect(state.bodyBytes == 600)
        #expect(state.failure?.kind == .responseTooLarge)
        #expect(state.failure?.message.hasPrefix("the response body passed the limit of 1000 bytes") == true)
    }

    @Test("the request is reported sent once, and again after libcurl rewinds its body")
    func requestSentOnce() {
        var state = TransferStateTests.state()
        let first = state.requestSent()
        let second = state.requestSent()
        state.bodyRewound()
        let afterRewind = state.requestSent()
        #expect(first && !second && afterRewind)
    }

    @Test("a trust rejection is the error when it aborted the exchange, with its stage and what was presented; not otherwise")
    func trustRejection() {
        var state = TransferStateTests.state()
        state.connectionReady()
        state.rejectTrust(.init(reason: "no pin matched", stage: "trust-evaluation", presented: []))
        let aborted = state.error(for: TransferStateTests.ending(code: 42, cause: .abortedByCallback, kind: .stage, message: "Callback aborted"))
        #expect(aborted.kind == .trustEvaluation && aborted.stage == "trust-evaluation" && aborted.message == "no pin matched")
        #expect(aborted.curlCode == 42 && aborted.url == TransferStateTests.url)
        let later = state.error(for: TransferStateTests.ending(code: 28, kind: .timeout, message: "Operation timed out"))
        #expect(later.kind == .timeout && later.message == "Operation timed out")
    }

    @Test("a failed handshake says which host, why, and what the server presented")
    func tlsWithPresentedChain() {
        let state = TransferStateTests.state()
        let error = state.error(for: TransferStateTests.ending(
            code: 60, kind: .tls, message: "SSL certificate problem", presented: (reason: "certificate has expired", certificates: [])
        ))
        #expect(error.kind == .tls && error.curlCode == 60)
        #expect(error.message == "the TLS handshake with api.test failed: certificate has expired (SSL certificate problem). The server presented: no certificate.")
        let notTLS = state.error(for: TransferStateTests.ending(code: 7, kind: .connect, presented: (reason: nil, certificates: [])))
        #expect(notTLS.kind == .connect)
    }

    @Test("the exchange's own failure wins over libcurl's code, keeping a curl code of its own")
    func ownFailure() {
        var state = TransferStateTests.state(limit: 10)
        _ = state.takesDecodedBytes(11)
        let error = state.error(for: TransferStateTests.ending(code: 23, kind: .fileIO, message: "Failed writing received data"))
        #expect(error.kind == .responseTooLarge && error.curlCode == 23 && error.url == TransferStateTests.url)
        var coded = TransferStateTests.state()
        var undecodable = SluiceError(kind: .decoding, stage: "transport", message: "not gzip")
        undecodable.curlCode = 61
        coded.fail(undecodable)
        #expect(coded.error(for: TransferStateTests.ending(code: 23)).curlCode == 61)
    }

    @Test("a declared length past the limit ends the exchange once the head has ended, with curl's code 63; a body the response does not have, or a coded one within the wire limit, does not")
    func declaredLength() {
        func state(_ length: Int, coded: Bool = false) -> TestState {
            var state = TransferStateTests.state(limit: 1000)
            _ = TransferStateTests.line("HTTP/1.1 200 OK\r\n", into: &state)
            _ = TransferStateTests.line("Content-Length: \(length)\r\n", into: &state)
            _ = TransferStateTests.line("\r\n", into: &state)
            return state
        }
        var over = state(1001)
        let overGoesOn = over.headEnded(codings: [], hasBody: true)
        #expect(!overGoesOn)
        let error = over.error(for: TransferStateTests.ending(code: 23, kind: .fileIO, message: "Failed writing header"))
        #expect(error.kind == .responseTooLarge && error.curlCode == 63)
        #expect(error.message.hasPrefix("the response declares a body of 1001 bytes (Content-Length), past the limit of 1000 bytes; none of it was read"))
        var within = state(1000), noBody = state(5000), coded = state(5000), codedOver = state(6000)
        let goOn = (
            within.headEnded(codings: [], hasBody: true), noBody.headEnded(codings: [], hasBody: false),
            coded.headEnded(codings: [.gzip], hasBody: true), codedOver.headEnded(codings: [.gzip], hasBody: true)
        )
        #expect(goOn == (true, true, true, false) && noBody.failure == nil)
    }

    @Test("a proxy's refusal, a header line past 100 KiB, and libcurl's own words")
    func otherEndings() {
        let unlimited = TransferStateTests.state()

        let refused = unlimited.error(for: TransferStateTests.ending(code: 56, kind: .connectionLost, proxyRefusal: "the proxy refused the tunnel"))
        #expect(refused.kind == .proxy && refused.message == "the proxy refused the tunnel" && refused.curlCode == 56)

        let longLine = unlimited.error(for: TransferStateTests.ending(code: 27, cause: .outOfMemory, kind: .transport, message: "Out of memory"))
        #expect(longLine.kind == .protocolError && longLine.message == "a response header line is longer than libcurl's limit of 100 KiB")
        var headDone = TransferStateTests.state()
        _ = TransferStateTests.line("HTTP/1.1 200 OK\r\n", into: &headDone)
        _ = TransferStateTests.line("\r\n", into: &headDone)
        #expect(headDone.error(for: TransferStateTests.ending(code: 27, cause: .outOfMemory, kind: .transport, message: "Out of memory")).kind == .transport)

        let plain = unlimited.error(for: TransferStateTests.ending())
        #expect(plain.kind == .connect && plain.stage == "transport" && plain.message == "Couldn't connect to server" && plain.curlCode == 7)
    }

    // MARK: Phases

    /// The end actions as words, the caller by its name: `head(c)`, `body(ok)`, `body(KIND)`,
    /// `resume(c, STATUS)`, `resume(c, KIND)`.
    static func words(_ actions: TestState.EndActions) -> [String] {
        actions.list.map { action in
            switch action {
            case .deliverHead(let caller): "head(\(caller))"
            case .endBody(.success): "body(ok)"
            case .endBody(.failure(let error)): "body(\(error.kind))"
            case .resume(let caller, .success(let response)): "resume(\(caller), \(response.status))"
            case .resume(let caller, .failure(let error)): "resume(\(caller), \(error.kind))"
            }
        }
    }

    /// Whether the caller still waits: the phase holds it.
    static func isWaiting(_ state: TestState) -> Bool {
        if case .waiting = state.phase { return true }
        return false
    }

    static let ok = Result<Response, SluiceError>.success(Response(status: 200))
    static let lost = Result<Response, SluiceError>.failure(SluiceError(kind: .connectionLost, message: "reset"))

    @Test("idle to waiting once: a second start changes nothing")
    func start() {
        var state = TransferStateTests.state()
        #expect(!TransferStateTests.isWaiting(state))
        let first = state.start("c")
        #expect(first && TransferStateTests.isWaiting(state))
        let second = state.start("d")
        #expect(!second)
        #expect(TransferStateTests.words(state.end(with: TransferStateTests.ok, metrics: nil, streamsBody: false)) == ["resume(c, 200)"], "the first caller, not the second")
    }

    @Test("a body taken whole: waiting to ended resumes the caller with the response or the error, once")
    func wholeBody() {
        var state = TransferStateTests.state()
        _ = state.start("c")
        #expect(TransferStateTests.words(state.end(with: TransferStateTests.ok, metrics: nil, streamsBody: false)) == ["resume(c, 200)"])
        let late = state.end(with: TransferStateTests.lost, metrics: nil, streamsBody: false)
        #expect(late.list.isEmpty, "an end after the end is ignored")
        var failed = TransferStateTests.state()
        _ = failed.start("c")
        #expect(TransferStateTests.words(failed.end(with: TransferStateTests.lost, metrics: nil, streamsBody: false)) == ["resume(c, connection lost)"])
    }

    @Test("a streamed body: waiting to streaming at the head hands the caller over once; the end then ends only the body")
    func streamedBody() {
        var state = TransferStateTests.state()
        _ = state.start("c")
        let caller = state.streamHeadEnded()
        #expect(caller == "c" && !TransferStateTests.isWaiting(state))
        let again = state.streamHeadEnded()
        #expect(again == nil, "a second head (a trailer, a bug) hands nothing over")
        #expect(TransferStateTests.words(state.end(with: TransferStateTests.ok, metrics: TransferMetrics(), streamsBody: true)) == ["body(ok)"])
        var lost = TransferStateTests.state()
        _ = lost.start("c")
        _ = lost.streamHeadEnded()
        #expect(TransferStateTests.words(lost.end(with: TransferStateTests.lost, metrics: nil, streamsBody: true)) == ["body(connection lost)"], "the reader hears of it, the caller has its response already")
    }

    @Test("a streamed body whose head never showed: the response handed over whole at the end; a failure first ends the body, then the caller")
    func streamedWithoutHead() {
        var state = TransferStateTests.state()
        _ = state.start("c")
        #expect(TransferStateTests.words(state.end(with: TransferStateTests.ok, metrics: nil, streamsBody: true)) == ["head(c)", "body(ok)"])
        var failed = TransferStateTests.state()
        _ = failed.start("c")
        #expect(TransferStateTests.words(failed.end(with: TransferStateTests.lost, metrics: nil, streamsBody: true)) == ["body(connection lost)", "resume(c, connection lost)"])
    }

    @Test("an end before the start (never handed to the loop) resumes nobody and ends the exchange")
    func endBeforeStart() {
        var state = TransferStateTests.state()
        let actions = state.end(with: TransferStateTests.lost, metrics: nil, streamsBody: false)
        #expect(actions.list.isEmpty)
        let started = state.start("c")
        #expect(!started, "an ended exchange does not start")
    }
}
