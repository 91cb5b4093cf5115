import Foundation
import SluiceCore
import SluiceStageRegistry

/// Writes every exchange that passes it to a HAR 1.2 file, which browsers' developer tools open.
///
/// Each entry holds the request as this stage sends it on (headers, query, body), the response
/// (headers, body up to `maxBodyBytes`; binary bodies in base64), and timings from the task's
/// transfer metrics: DNS, connect (TLS included), TLS, wait for the first byte, receive. A request
/// that fails without a response is recorded with status 0 and its error in `_error`. Secrets
/// are hidden as `***`: credential headers (`Authorization`, `Proxy-Authorization`) and the
/// headers in `redactedHeaders` always, and under the runner every secret of the pipeline file,
/// wherever it appears. It runs last, just above the transport, wherever it is listed
/// (`StagePlacement/exchangeObserver`): it records each exchange as sent, every attempt and every hop.
///
/// The file is an `OutputFile` written as curl's `-o` writes: a regular file (a link followed,
/// an existing one written in place, its hard links and mode kept) is a complete HAR document
/// after every entry; a device or a FIFO (`/dev/stdout`, a named pipe) gets the log's opening,
/// each entry as it is recorded, and the closing brackets when the recorder is released.
public struct HARRecorder: Stage {
    /// Headers whose values are always hidden.
    public static let defaultRedactedHeaders = ["Cookie", "Set-Cookie", "X-Api-Key", "X-Amz-Security-Token"]
    /// The largest body written by default: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// Headers whose values are hidden.
    public var redactedHeaders: Set<String>
    /// Bodies larger than this are not written, only their size.
    public var maxBodyBytes: Int
    private let file: HARFile

    public var name: String { "har-recorder" }

    /// `StagePlacement/exchangeObserver`: at the bottom, so it records each exchange (every hop, every attempt) as sent.
    public static var placement: StagePlacement { .exchangeObserver }

    /// Creates the stage and the file, with an empty log.
    /// - Throws: `.configuration` when the file cannot be created.
    public init(path: String, redactedHeaders: [String] = HARRecorder.defaultRedactedHeaders, maxBodyBytes: Int = HARRecorder.defaultMaxBodyBytes) throws(SluiceError) {
        file = try HARFile(path: path, started: Date())
        self.redactedHeaders = Set(redactedHeaders.map { $0.lowercased() })
        self.maxBodyBytes = maxBodyBytes
    }

    /// The file's path.
    public var path: String { file.path }

    public func handle(
        _ request: Request,
        context: TaskContext,
        next: (Request, TaskContext) async throws -> Response
    ) async throws -> Response {
        let started = Date()
        let clock = ContinuousClock.now
        let transfersBefore = context.metrics.transfers.count
        let redactor = context.storage[RunInfo.Key.self]?.redactor ?? Redactor(secrets: [])
        do {
            let response = try await next(request, context)
            let metrics = Array(context.metrics.transfers.dropFirst(transfersBefore))
            try file.append(entry(request, response: response, error: nil, started: started, elapsed: .now - clock, metrics: metrics, redactor: redactor))
            return response
        } catch let error as SluiceError where error.kind != .fileIO || error.stage != name {
            let metrics = Array(context.metrics.transfers.dropFirst(transfersBefore))
            try file.append(entry(request, response: error.response, error: error, started: started, elapsed: .now - clock, metrics: metrics, redactor: redactor))
            throw error
        }
    }

    /// One HAR entry.
    func entry(
        _ request: Request, response: Response?, error: SluiceError?, started: Date, elapsed: Duration, metrics: [TransferMetrics], redactor: Redactor
    ) -> JSONValue {
        let timings = HARTimings(metrics: metrics, elapsed: elapsed)
        var fields: [(String, JSONValue)] = [
            ("pageref", "page_1"),
            ("startedDateTime", .string(HARFile.timestamp(started))),
            ("time", .double(timings.total)),
            ("request", requestRecord(request, version: metrics.last?.httpVersion ?? response?.httpVersion, redactor: redactor)),
            ("response", responseRecord(response, redactor: redactor)),
            ("cache", .object(JSONObject())),
            ("timings", timings.json),
        ]
        if let address = metrics.last?.remoteAddress { fields.append(("serverIPAddress", .string(address))) }
        if let port = metrics.last?.localPort { fields.append(("connection", .string(String(port)))) }
        if let error { fields.append(("_error", .string(redactor.redact(error.description)))) }
        return .object(JSONObject(fields))
    }

    private func requestRecord(_ request: Request, version: HTTPVersion?, redactor: Redactor) -> JSONValue {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        var fields: [(String, JSONValue)] = [
            ("method", .string(request.method.rawValue)),
            ("url", .string(redactor.redact(request.url.absoluteString))),
            ("httpVersion", .string(HARRecorder.versionText(version))),
            ("cookies", .array([])),
            ("headers", headers(request.headers, redactor: redactor)),
            ("queryString", .array(query.map { ["name": .string($0.name), "value": .string(redactor.redact($0.value ?? ""))] })),
            ("headersSize", -1),
            ("bodySize", .int(Int(request.body.byteCount))),
        ]
        if !request.body.isEmpty {
            var postData: [(String, JSONValue)] = [("mimeType", .string(request.headers["Content-Type"] ?? "")), ("params", .array([]))]
            if case .data(let data) = request.body, data.count <= maxBodyBytes, let text = String(data: data, encoding: .utf8) {
                postData.append(("text", .string(redactor.redact(text))))
            } else {
                postData.append(("text", ""))
                postData.append(("comment", .string("a body of \(Int(request.body.byteCount)) bytes, not recorded (binary, streamed from files, or over the size limit)")))
            }
            fields.append(("postData", .object(JSONObject(postData))))
        }
        return .object(JSONObject(fields))
    }

    private func responseRecord(_ response: Response?, redactor: Redactor) -> JSONValue {
        guard let response else {
            return [
                "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                "content": ["size": 0, "mimeType": "x-unknown"], "redirectURL": "", "headersSize": -1, "bodySize": -1,
            ]
        }
        let mimeType = response.headers["Content-Type"] ?? "x-unknown"
        // HAR 1.2: bodySize is the body as received (compressed, when it came so), content.size
        // its length decoded, and compression the bytes the coding saved.
        let received = response.metrics.map { Int($0.bodyBytesReceived) } ?? response.body.count
        var content: [(String, JSONValue)] = [("size", .int(response.body.count)), ("mimeType", .string(mimeType))]
        if response.bodyFile == nil, response.bodyStream == nil, received < response.body.count {
            content.append(("compression", .int(response.body.count - received)))
        }
        if let file = response.bodyFile {
            content.append(("comment", .string("the body was written to \(file.path)")))
        } else if response.bodyStream != nil {
            content.append(("comment", .string("the body was streamed to the caller as it arrived, not recorded")))
        } else if response.body.count > maxBodyBytes {
            content.append(("comment", .string("a body of \(response.body.count) bytes, over the size limit of \(maxBodyBytes), not recorded")))
        } else if let text = String(data: response.body, encoding: .utf8) {
            content.append(("text", .string(redactor.redact(text))))
        } else {
            content.append(("text", .string(response.body.base64EncodedString())))
            content.append(("encoding", "base64"))
        }
        return .object(JSONObject([
            ("status", .int(response.status)),
            ("statusText", ""),
            ("httpVersion", .string(HARRecorder.versionText(response.httpVersion))),
            ("cookies", .array([])),
            ("headers", headers(response.headers, redactor: redactor)),
            ("content", .object(JSONObject(content))),
            ("redirectURL", .string(response.headers["Location"] ?? "")),
            ("headersSize", -1),
            ("bodySize", .int(received)),
        ]))
    }

    private func headers(_ headers: HTTPHeaders, redactor: Redactor) -> JSONValue {
        .array(headers.map { field in
            let value = redactedHeaders.contains(field.name.lowercased()) ? "***" : redactor.redact(header: field.name, value: field.value)
            return ["name": .string(field.name), "value": .string(value)]
        })
    }

    private static func versionText(_ version: HTTPVersion?) -> String {
        guard let version, version != .unknown else { return "" }
        return version.rawValue
    }
}
