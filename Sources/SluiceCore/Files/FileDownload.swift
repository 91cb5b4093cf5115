import Foundation

/// One task's download to a file, owned whole by this value, as AsyncHTTPClient's
/// `FileDownloadDelegate` owns its file: the transport below only streams.
///
/// It owns, from the task's start to its end:
/// - **the destination**, opened before anything is sent (``OutputFile``, so a directory or a
///   missing folder fails the task at once) and changed only when the task succeeds;
/// - **the staging file** beside it, which each hop of the chain (a redirect, a retry) writes its
///   body into ("hop file"), so that only the final response's body reaches the destination;
/// - **special files**: a device or a FIFO cannot be staged, so the chain streams and the final
///   body is written to it as it arrives;
/// - **resuming**: a download resumed from ``DownloadResumeData`` writes through the kept
///   partial file: a `206` that starts where the kept bytes end is appended, a `200` written from
///   the start, any other status kept in memory with the file left alone;
/// - **resume data**: a hop cut once its body began names the kept bytes, the destination and
///   the validators in the error's ``SluiceError/resumeData``, when the download keeps them.
///
/// The chain sees `.file(hop file)` as the request's destination, so stages keep reading a
/// download's `bodyFile` (the cache stores it, a HAR recorder names it); the bottom of the chain
/// asks the transport for a stream and writes it here (``writing(over:)``), and so does
/// the cache when it serves a stored body (``deliver(_:body:for:)``).
final class FileDownload: @unchecked Sendable {
    /// A body to write into the hop file, or to keep in memory for a status that leaves the file
    /// alone.
    enum Body {
        /// The body in memory.
        case memory(Data)
        /// The body as the transport streams it.
        case stream(ResponseBodyStream)
        /// A stored response's body (the cache's).
        case stored(CachedBody)
    }

    /// The file the user named.
    let destination: URL
    /// The destination, staged or special, committed with the final response.
    private let output: OutputFile
    /// The download this one goes on with.
    private let resumed: DownloadResumeData?
    /// Whether a cut download keeps its bytes for ``SluiceError/resumeData``.
    private let keepsPartial: Bool
    /// Where the hops write their bodies: the staging file, or the destination itself for a
    /// download resumed where it keeps its bytes (curl's `-C -`); `nil` for a device or FIFO.
    private let hopFile: URL?

    /// Opens the destination for a download of `request`; nothing is sent yet.
    /// - Throws: `.fileIO` for a destination that cannot be written (a directory, a socket, a
    ///   missing folder), or a resume whose partial file is gone.
    init(_ request: Request, to destination: URL) throws(SluiceError) {
        self.destination = destination
        resumed = request.resumingFrom
        keepsPartial = request.keepsPartialDownload || resumed != nil
        if let resumed {
            output = try OutputFile(path: destination.path, partial: resumed.partialFile.path, role: "the download", stage: "output")
        } else {
            output = try OutputFile(path: destination.path, role: "the download", stage: "output")
        }
        hopFile = (output.stagingPath ?? (resumed != nil && !output.isSpecial ? destination.path : nil)).map { URL(fileURLWithPath: $0) }
    }

    /// Runs the download: the chain with the hop file as its destination (a stream for a device
    /// or FIFO), then the final response's body put in place.
    /// - Returns: the final response, its `bodyFile` the destination; for a resumed download
    ///   answered with neither `200` nor `206`, its body in memory and the kept bytes left alone.
    /// - Throws: what the chain throws, with ``SluiceError/resumeData`` when the bytes are kept.
    func run(_ request: Request, through chain: (Request) async throws -> Response) async throws -> Response {
        var chained = request
        chained.destination = hopFile.map { .file($0) } ?? .stream()
        chained.stageValues[Owner.self] = self
        let response: Response
        do {
            response = try await chain(chained)
        } catch {
            throw failed(error, url: request.url)
        }
        return try await finish(response)
    }

    /// Writes a streamed (special file) download's body to the output as it arrives and commits:
    /// the response as a download's, its metrics those of the whole exchange.
    private func writeToOutput(_ response: Response) async throws(SluiceError) -> Response {
        var response = response
        var written: Int64 = 0
        let body = response.bodyStream.map(Body.stream) ?? .memory(response.body)
        try await body.write(to: output) { written += Int64($0) }
        if let stream = response.bodyStream { response.metrics = stream.finalMetrics ?? response.metrics }
        try output.commit()
        response.bodyStream = nil
        response.body = Data()
        response.bodyFile = destination
        response.bodyFileByteCount = written
        return response
    }

    /// Puts the final response's body in place.
    private func finish(_ response: Response) async throws -> Response {
        guard let hopFile else {
            return try await writeToOutput(response)
        }
        var response = response
        if let resumed, response.status != 200, response.status != 206 {
            // A 416 saying the resource is as long as the bytes kept: they are the whole body.
            guard response.status == 416, response.bodyFile == nil,
                response.headers["Content-Range"].flatMap(ContentRange.init) == .unsatisfied(completeLength: resumed.offset)
            else {
                _ = output.keepStaging()
                return response
            }
        } else if response.bodyFile == nil {
            // A stage answered without the transport (from memory): its body is the file's, by
            // the same rules (a resumed download's 206 appended).
            response = try await FileDownload.write(
                response, body: response.bodyStream.map(Body.stream) ?? .memory(response.body), to: hopFile.path,
                resumingAt: resumeOffset(writing: hopFile.path), requestURL: response.url ?? destination, keepingFor: nil
            )
        }
        try output.commit()
        response.bodyFile = destination
        return response
    }

    /// The task's error: with resume data naming the kept bytes when the download keeps them
    /// (the staging file then stays), without any otherwise (and the staging file goes).
    private func failed(_ error: any Error, url: URL) -> any Error {
        var failure = error as? SluiceError
        let cut = failure?.resumeData.flatMap { $0.partialFile.path == hopFile?.path ? $0 : nil }
        guard keepsPartial, let kept = cut ?? resumed else {
            failure?.resumeData = nil
            output.discard()
            return failure ?? error
        }
        _ = output.keepStaging()
        var wrapped = failure ?? SluiceError.wrapping(error, stage: nil, url: url)
        wrapped.resumeData = kept
        return wrapped
    }

    // MARK: The hops

    /// The offset a hop writing to `path` continues from: the kept bytes' count, for the hop file
    /// of a resumed download.
    private func resumeOffset(writing path: String) -> Int64? {
        path == hopFile?.path ? resumed?.offset : nil
    }

    /// `transport` for a request whose destination is a file (the bottom of the chain): the
    /// transport is asked for a stream, written to the file as it arrives.
    static func writing(over transport: any Transport) -> any Transport {
        StreamWriting(transport: transport)
    }

    /// A transport's stream written to the request's file.
    private struct StreamWriting: Transport {
        let transport: any Transport

        func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
            var streamed = request
            streamed.destination = .stream()
            let response = try await transport.execute(streamed, events: events)
            return try await FileDownload.deliver(response, body: response.bodyStream.map(Body.stream) ?? .memory(response.body), for: request)
        }
    }

    /// Writes `body`, the body of `head`, to the file `request` names as its destination: a
    /// hop's, or any file a stage chose. Returns `head` with its `bodyFile` that file, or with
    /// the body in memory for a resumed download's status that leaves the kept bytes alone.
    /// - Throws: `.protocolError` for a `206` that does not start where the kept bytes end;
    ///   `.fileIO`; what the stream throws, with resume data once the body began.
    static func deliver(_ head: Response, body: Body, for request: Request) async throws(SluiceError) -> Response {
        guard case .file(let url) = request.destination else { return head }
        let owner = request.stageValues[Owner.self]
        return try await write(
            head, body: body, to: url.path, resumingAt: owner?.resumeOffset(writing: url.path), requestURL: request.url,
            keepingFor: owner?.keepsPartial == true ? owner?.destination : nil
        )
    }

    /// The request key under which the chain's request names its download.
    private enum Owner: StageValueKey { typealias Value = FileDownload }

    /// Writes a hop's body to `path`: from the start, or after the first `offset` bytes for a
    /// `206` that starts there; a resumed download's other statuses but `200` keep the body in
    /// memory. A body cut once it began carries resume data for `keptFor`, the download's
    /// destination, when the download keeps its bytes.
    private static func write(
        _ head: Response, body: Body, to path: String, resumingAt offset: Int64?, requestURL: URL, keepingFor keptFor: URL?
    ) async throws(SluiceError) -> Response {
        var response = head
        response.bodyStream = nil
        response.body = Data()
        var replacement = OutputFile.Replacement.asWritten
        if let offset {
            switch head.status {
            case 206:
                guard head.headers["Content-Range"].flatMap(ContentRange.init) == .satisfied(first: offset) else {
                    throw SluiceError(
                        kind: .protocolError, stage: "transport", url: requestURL,
                        message: "the server answered the range from byte \(offset) with \(head.headers["Content-Range"].map { "Content-Range \($0)" } ?? "no Content-Range"), not bytes from \(offset)"
                    )
                }
                replacement = .continuing(from: offset)
            case 200:
                break
            default:
                response.body = try await body.collected()
                return response
            }
        }
        let file = try OutputFile(path: path, replacement: replacement, role: "the download", stage: "transport")
        var written: Int64 = 0
        do throws(SluiceError) {
            try await body.write(to: file) { written += Int64($0) }
            try file.commit()
        } catch {
            var failure = error
            if let keptFor {
                failure.resumeData = resumeData(head, url: requestURL, path: path, kept: (offset ?? 0) + written, destination: keptFor)
            }
            throw failure
        }
        if case .stream(let stream) = body { response.metrics = stream.finalMetrics ?? response.metrics }
        response.bodyFile = URL(fileURLWithPath: path)
        return response
    }

    /// What a hop cut after its body began needs to go on: `nil` for a status other than `200`
    /// or `206`, a body in a content coding (its ranges would not count the bytes kept), or no
    /// byte kept.
    private static func resumeData(_ head: Response, url: URL, path: String, kept: Int64, destination: URL) -> DownloadResumeData? {
        guard head.status == 200 || head.status == 206, kept > 0,
            head.headers.values(for: "Content-Encoding").allSatisfy({ $0.lowercased() == "identity" })
        else { return nil }
        return DownloadResumeData(
            url: url, destination: destination, partialFile: URL(fileURLWithPath: path), offset: kept,
            entityTag: head.headers["ETag"], lastModified: head.headers["Last-Modified"]
        )
    }
}

extension FileDownload.Body {
    /// Writes every byte to `file` in order, reporting each piece's size to `counted` once it is
    /// written.
    fileprivate func write(to file: OutputFile, counted: (Int) -> Void) async throws(SluiceError) {
        switch self {
        case .memory(let data):
            try file.write(data)
            counted(data.count)
        case .stream(let stream):
            var pieces = stream.makeAsyncIterator()
            while let piece = try await pieces.next() {
                try file.write(piece)
                counted(piece.count)
            }
        case .stored(let body):
            try body.chunks { bytes throws(SluiceError) in
                try file.write(bytes)
                counted(bytes.count)
            }
        }
    }

    /// The whole body in memory (a stream's limit is the one the transport gave it).
    fileprivate func collected() async throws(SluiceError) -> Data {
        switch self {
        case .memory(let data): data
        case .stream(let stream): try await stream.collect(upTo: Int.max)
        case .stored(let body): try body.data()
        }
    }
}
