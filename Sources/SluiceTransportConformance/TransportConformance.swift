import Foundation
import SluiceCore

/// The behaviour every `Transport` owes the engine, checked against a live server: one suite
/// for every transport, `CurlTransport`, `InMemoryTransport` and one written outside Sluice's
/// package alike.
///
/// Each check sends a request straight to the transport with a listener of its own and judges the
/// response, the error and the reports: the body in memory and streamed to the reader, a `.file`
/// destination refused (the pipeline writes downloads, over the transport's stream), a streamed upload, a status that is a response, trust asked before the request and a
/// refusal honoured, the response size limit, cancellation, and the order of the reports
/// (started first, trust before the request is sent, the head after it, download progress up to
/// the whole body, finished last with the control given at the start).
///
/// ```swift
/// let conformance = TransportConformance(
///     transport: InMemoryTransport(TransportConformance.respond(to:)),
///     server: URL(string: "http://conformance.test")!,
///     directory: FileManager.default.temporaryDirectory
/// )
/// for check in TransportConformance.Check.allCases {
///     let problems = await conformance.run(check)
///     assert(problems.isEmpty, "\(check): \(problems)")
/// }
/// ```
public struct TransportConformance: Sendable {
    /// One behaviour a transport owes.
    public enum Check: String, CaseIterable, Sendable {
        /// A body taken whole into memory, with the reports in order.
        case memoryBody = "a body in memory, reported in order"
        /// A chunked body taken whole.
        case chunkedBody = "a chunked body in memory"
        /// A non-2xx status is a response, not an error.
        case statusIsAResponse = "a 404 is a response"
        /// A `.stream` destination: the response at its head, the body read piece by piece.
        case streamedBody = "a body streamed to the reader"
        /// A `.file` destination given to the transport is refused with `.invalidRequest`, and a
        /// download through a pipeline over the transport (its stream) writes the file.
        case fileBody = "a file left to the pipeline, which writes it from the stream"
        /// A streamed upload of unknown length, and one of declared length.
        case streamedUpload = "a streamed upload, chunked and with a length"
        /// A trust refusal ends the exchange with `.trustEvaluation`.
        case trustRefused = "a trust refusal is honoured"
        /// `Request.maxResponseSize` passed gives `.responseTooLarge`.
        case sizeLimit = "the response size limit"
        /// Swift task cancellation ends the exchange with `.cancelled`.
        case cancellation = "cancellation mid-body"
    }

    private let transport: any Transport
    private let server: URL
    private let directory: URL

    /// A suite for `transport`.
    /// - Parameters:
    ///   - transport: the transport checked.
    ///   - server: the base URL of a server with the `/conformance/` endpoints (see
    ///     ``respond(to:)``), for example Sluice's scenario server.
    ///   - directory: a folder the file check may write in.
    public init(transport: any Transport, server: URL, directory: URL) {
        self.transport = transport
        self.server = server
        self.directory = directory
    }

    /// Runs every check; returns what went wrong, each problem prefixed with its check.
    public func run() async -> [String] {
        var problems: [String] = []
        for check in Check.allCases {
            problems += await run(check).map { "\(check.rawValue): \($0)" }
        }
        return problems
    }

    /// Runs one check; returns what went wrong, empty when the transport behaved.
    public func run(_ check: Check) async -> [String] {
        do {
            switch check {
            case .memoryBody: return try await memoryBody(path: "bytes/100000", count: 100_000)
            case .chunkedBody: return try await memoryBody(path: "bytes/70000?chunked=1", count: 70_000)
            case .statusIsAResponse: return try await statusIsAResponse()
            case .streamedBody: return try await streamedBody()
            case .fileBody: return try await fileBody()
            case .streamedUpload: return try await streamedUpload()
            case .trustRefused: return await trustRefused()
            case .sizeLimit: return await sizeLimit()
            case .cancellation: return await cancellation()
            }
        } catch {
            return ["the exchange failed: \(error)"]
        }
    }

    private func url(_ path: String) -> URL {
        URL(string: server.absoluteString.trimmingSuffix("/") + "/conformance/" + path)!
    }

    // MARK: Checks

    private func memoryBody(path: String, count: Int) async throws -> [String] {
        let events = ConformanceEvents()
        let response = try await transport.execute(Request(url: url(path)), events: events)
        var problems = [String]()
        if response.status != 200 { problems.append("status \(response.status), not 200") }
        if response.body != Self.pattern(count) { problems.append("the body has \(response.body.count) bytes, not the \(count) sent") }
        problems += Self.order(of: events.reports, status: 200, bodyBytes: Int64(count), host: server.host ?? "")
        return problems
    }

    private func statusIsAResponse() async throws -> [String] {
        let events = ConformanceEvents()
        let response = try await transport.execute(Request(url: url("status/404")), events: events)
        var problems = response.status == 404 ? [] : ["status \(response.status), not 404"]
        problems += Self.order(of: events.reports, status: 404, bodyBytes: 0, host: server.host ?? "")
        return problems
    }

    private func streamedBody() async throws -> [String] {
        let events = ConformanceEvents()
        let count = 300_000
        let response = try await transport.execute(Request(url: url("bytes/\(count)"), destination: .stream(bufferSize: 16_384)), events: events)
        guard let stream = response.bodyStream else { return ["no bodyStream for a .stream destination"] }
        var problems = response.body.isEmpty ? [] : ["Response.body holds \(response.body.count) bytes beside the stream"]
        var body = Data()
        for try await piece in stream { body.append(piece) }
        if body != Self.pattern(count) { problems.append("the stream gave \(body.count) bytes, not the \(count) sent") }
        problems += Self.order(of: events.reports, status: 200, bodyBytes: Int64(count), host: server.host ?? "")
        return problems
    }

    private func fileBody() async throws -> [String] {
        let destination = directory.appendingPathComponent("conformance-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        var problems = [String]()
        do {
            _ = try await transport.execute(Request(url: url("bytes/50000"), destination: .file(destination)), events: ConformanceEvents())
            problems.append("a .file destination was taken: a transport delivers memory or a stream, and the pipeline writes files")
        } catch let error as SluiceError where error.kind == .invalidRequest {
            if FileManager.default.fileExists(atPath: destination.path) { problems.append("the refused .file destination was created") }
        } catch {
            problems.append("a .file destination failed with \(error), not .invalidRequest")
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: transport))
        let response = try await manager.download(Request(url: url("bytes/50000")), to: destination)
        if response.bodyFile?.path != destination.path { problems.append("bodyFile is \(response.bodyFile?.path ?? "nil"), not the destination") }
        if FileManager.default.contents(atPath: destination.path) != Self.pattern(50_000) { problems.append("the file does not hold the body") }
        return problems
    }

    private func streamedUpload() async throws -> [String] {
        let pieces = [Data("first piece, ".utf8), Data(repeating: UInt8(ascii: "x"), count: 100_000), Data(", last".utf8)]
        let whole = pieces.reduce(Data(), +)
        var problems = [String]()
        for length in [nil, Int64(whole.count)] {
            let stream = RequestBodyStream(AsyncStream { continuation in
                for piece in pieces { continuation.yield(piece) }
                continuation.finish()
            }, length: length)
            let events = ConformanceEvents()
            let request = Request(method: .post, url: url("echo"), body: .stream(stream))
            let response = try await transport.execute(request, events: events)
            let form = length == nil ? "without a length" : "with its length"
            if response.body != whole { problems.append("\(form): the server got \(response.body.count) bytes back, not the \(whole.count) streamed") }
            problems += Self.order(of: events.reports, status: 200, bodyBytes: Int64(whole.count), host: server.host ?? "").map { "\(form): \($0)" }
        }
        return problems
    }

    private func trustRefused() async -> [String] {
        let events = ConformanceEvents(trustAnswer: .reject(reason: "refused by the conformance check"))
        do {
            let response = try await transport.execute(Request(url: url("bytes/10")), events: events)
            return ["a response (\(response.status)) although trust was refused"]
        } catch let error as SluiceError {
            var problems = [String]()
            if error.kind != .trustEvaluation { problems.append("a \(error.kind) error, not trustEvaluation: \(error)") }
            if !error.message.contains("refused by the conformance check") { problems.append("the error does not give the refusal's reason: \(error.message)") }
            if events.reports.contains(.sent) { problems.append("the request was reported sent after trust was refused") }
            if !events.reports.contains(where: { if case .trust = $0 { true } else { false } }) { problems.append("trust was never asked") }
            return problems
        } catch {
            return ["an error that is no SluiceError: \(error)"]
        }
    }

    private func sizeLimit() async -> [String] {
        var request = Request(url: url("bytes/5000"))
        request.maxResponseSize = 1_000
        do {
            let response = try await transport.execute(request, events: ConformanceEvents())
            return ["a response of \(response.body.count) bytes past the limit of 1,000"]
        } catch let error as SluiceError {
            return error.kind == .responseTooLarge ? [] : ["a \(error.kind) error, not responseTooLarge: \(error)"]
        } catch {
            return ["an error that is no SluiceError: \(error)"]
        }
    }

    private func cancellation() async -> [String] {
        let events = ConformanceEvents()
        let transport = transport
        let request = Request(url: url("hold"))
        let exchange = Task { try await transport.execute(request, events: events) }
        guard await events.wait(for: .sent) else {
            exchange.cancel()
            return ["the request was never reported sent"]
        }
        exchange.cancel()
        switch await exchange.result {
        case .success(let response):
            return ["a response (\(response.status)) although the task was cancelled"]
        case .failure(let error as SluiceError):
            return error.kind == .cancelled ? [] : ["a \(error.kind) error, not cancelled: \(error)"]
        case .failure(let error):
            return ["an error that is no SluiceError: \(error)"]
        }
    }

    // MARK: Order

    /// What is wrong with the reports of a finished exchange: started first; trust asked, for the
    /// server's host, before the request was sent; sent before the head; the head's status; the
    /// last download progress at the body's size; finished last, with the control of the start,
    /// once.
    static func order(of reports: [ConformanceEvents.Report], status: Int, bodyBytes: Int64, host: String) -> [String] {
        var problems = [String]()
        guard case .started(_, let control)? = reports.first else { return ["the first report is not transferStarted: \(reports)"] }
        guard case .finished(let finishedControl, _)? = reports.last else { return ["the last report is not transferFinished: \(reports)"] }
        if finishedControl != control { problems.append("transferFinished names another control than transferStarted") }
        if reports.filter({ if case .finished = $0 { true } else { false } }).count != 1 { problems.append("transferFinished reported more than once") }
        let trust = reports.firstIndex { if case .trust = $0 { true } else { false } }
        let sent = reports.firstIndex(of: .sent)
        let head = reports.firstIndex(of: .head(status))
        if let trust, case .trust(let asked, _, _) = reports[trust], asked != host { problems.append("trust asked for \(asked), not \(host)") }
        switch (trust, sent, head) {
        case (nil, _, _): problems.append("trust was never asked")
        case (_, nil, _): problems.append("requestSent was never reported")
        case (_, _, nil): problems.append("responseStarted(\(status)) was never reported")
        case (let trust?, let sent?, let head?):
            if trust > sent { problems.append("trust asked after the request was reported sent") }
            if sent > head { problems.append("the head reported before the request was sent") }
        }
        let downloaded = reports.compactMap { if case .progress(let progress) = $0 { progress.download.completed } else { nil } }
        if downloaded.last != bodyBytes { problems.append("the last download progress is \(downloaded.last.map(String.init) ?? "none"), not \(bodyBytes)") }
        return problems
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
