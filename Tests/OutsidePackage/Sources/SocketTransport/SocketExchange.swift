import Foundation
import SluiceCore

/// One request and its response on a connection of its own.
final class SocketExchange: @unchecked Sendable {
    private let request: Request
    private let events: any TransportEvents
    private let control: SocketControl
    private let connection: SocketConnection
    private let cancelled = NSLock()
    private var isCancelled = false

    init(request: Request, events: any TransportEvents, control: SocketControl) throws {
        guard request.url.scheme?.lowercased() == "http", let host = request.url.host else {
            throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "this transport speaks plain http only")
        }
        self.request = request
        self.events = events
        self.control = control
        do {
            connection = try SocketConnection(host: host, port: request.url.port ?? 80)
        } catch {
            throw SluiceError(kind: error.kind == .dns ? .dns : .connect, stage: "transport", url: request.url, message: error.message)
        }
    }

    /// Ends the exchange from another thread: the blocked socket call returns.
    func cancel() {
        cancelled.lock()
        isCancelled = true
        cancelled.unlock()
        connection.close()
    }

    private var wasCancelled: Bool {
        cancelled.lock()
        defer { cancelled.unlock() }
        return isCancelled || Task.isCancelled
    }

    /// The error a failed socket call ends the exchange with.
    private func failure(_ error: any Error) -> SluiceError {
        if wasCancelled { return SluiceError(kind: .cancelled, stage: "transport", url: request.url, message: "the task was cancelled") }
        if let error = error as? SluiceError { return error }
        if let error = error as? SocketError {
            return SluiceError(kind: error.kind == .protocolError ? .protocolError : .connectionLost, stage: "transport", url: request.url, message: error.message)
        }
        return SluiceError(kind: .transport, stage: "transport", url: request.url, message: "\(error)", underlying: error)
    }

    func run(transport: SocketTransport, started: ContinuousClock.Instant) async throws -> Response {
        do {
            let connectionInfo = ConnectionInfo(
                host: request.url.host ?? "", port: request.url.port ?? 80, scheme: "http",
                remoteAddress: connection.remoteAddress, remotePort: connection.remotePort
            )
            if case .reject(let reason) = events.evaluateTrust(connectionInfo, for: request) {
                throw SluiceError(kind: .trustEvaluation, stage: "trust-evaluation", url: request.url, message: reason)
            }
            try await writeRequest()
            events.requestSent()
            let head = try readHead()
            events.responseStarted(status: head.status)
            var response = Response(status: head.status, headers: head.headers, url: request.url, httpVersion: .http1_1)
            let body = SocketBody(connection: connection, headers: head.headers, method: request.method)
            switch request.destination {
            case .stream(let bufferSize):
                let (stream, writer) = ResponseBodyStream.makeStream(bufferSize: bufferSize, url: request.url, transport: transport)
                response.bodyStream = stream
                Task { await self.pump(body, into: writer, started: started) }
                return response
            default:
                response.body = try readWhole(body)
            }
            let metrics = TransferMetrics(total: .now - started, bytesReceived: body.received, httpVersion: .http1_1)
            response.metrics = metrics
            events.transferFinished(control: control, metrics: metrics)
            return response
        } catch {
            throw failure(error)
        }
    }

    private func writeRequest() async throws {
        var head = "\(request.method.rawValue) \(request.url.path.isEmpty ? "/" : request.url.path)\(request.url.query.map { "?\($0)" } ?? "") HTTP/1.1\r\n"
        head += "Host: \(request.url.host ?? "")\(request.url.port.map { ":\($0)" } ?? "")\r\nConnection: close\r\n"
        for field in request.headers { head += "\(field.name): \(field.value)\r\n" }
        switch request.body {
        case .none:
            try connection.write(Data((head + "\r\n").utf8))
        case .data(let data):
            try connection.write(Data((head + "Content-Length: \(data.count)\r\n\r\n").utf8) + data)
        case .stream(let stream):
            guard let pieces = stream.take() else {
                throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "the streamed body was sent already")
            }
            let chunked = stream.length == nil
            try connection.write(Data((head + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: \(stream.length!)\r\n\r\n")).utf8))
            while let piece = try await pieces.next() {
                guard !piece.isEmpty else { continue }
                try connection.write(chunked ? Data(String(piece.count, radix: 16).utf8) + Data("\r\n".utf8) + piece + Data("\r\n".utf8) : piece)
            }
            if chunked { try connection.write(Data("0\r\n\r\n".utf8)) }
        default:
            throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "this transport sends no file or segmented bodies")
        }
    }

    private func readHead() throws -> (status: Int, headers: HTTPHeaders) {
        guard let statusLine = try connection.line() else { throw SocketError(kind: .connectionLost, message: "the server closed the connection before answering") }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw SocketError(kind: .protocolError, message: "not an HTTP/1 status line: \(statusLine)")
        }
        var headers = HTTPHeaders()
        while let line = try connection.line(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw SocketError(kind: .protocolError, message: "not a header line: \(line)") }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers)
    }

    private func readWhole(_ body: SocketBody) throws -> Data {
        var data = Data()
        while let piece = try body.next() {
            data += piece
            if let limit = request.maxResponseSize, Int64(data.count) > limit {
                throw SluiceError(kind: .responseTooLarge, stage: "transport", url: request.url, message: "the response body passed the limit of \(limit) bytes")
            }
            events.progressed(TaskProgress(download: TransferProgress(completed: body.received, expected: body.expected)))
        }
        events.progressed(TaskProgress(download: TransferProgress(completed: body.received, expected: body.received)))
        return data
    }

    private func pump(_ body: SocketBody, into writer: ResponseBodyWriter, started: ContinuousClock.Instant) async {
        do {
            while let piece = try body.next() {
                events.progressed(TaskProgress(download: TransferProgress(completed: body.received, expected: body.expected)))
                try await writer.write(piece)
            }
            events.progressed(TaskProgress(download: TransferProgress(completed: body.received, expected: body.received)))
            let metrics = TransferMetrics(total: .now - started, bytesReceived: body.received, httpVersion: .http1_1)
            events.transferFinished(control: control, metrics: metrics)
            writer.finish(metrics: metrics)
        } catch {
            connection.close()
            events.transferFinished(control: control, metrics: nil)
            writer.fail(failure(error))
        }
    }
}
