internal import CCurl
import Foundation
import SluiceCore

/// Where the bytes of an exchange go and come from: the response body into memory (decoded on the
/// way) or a stream's channel, the head's end and what it decides, and the request body read for
/// libcurl. I/O thread only.
extension CurlTransfer {
    /// Takes bytes of the response body off the wire: into the stream's channel (pausing when
    /// its reader is behind), or decoded into memory; 0 fails the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        guard state.admitsWireBytes(bytes.count) else { return 0 }
        if let bodyChannel {
            guard bodyChannel.offer(bytes) else {
                // libcurl keeps these bytes and hands them over again once receiving resumes.
                state.receiverFellBehind()
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            state.countWireBytes(bytes.count)
            return bytes.count
        }
        state.countWireBytes(bytes.count)
        guard let decoder else {
            return take(bytes) ? bytes.count : 0
        }
        decoder.append(bytes)
        do {
            while let piece = try decoder.next() {
                guard piece.withUnsafeBytes(take) else { return 0 }
            }
        } catch {
            state.fail(.undecodableBody(error, url: request.url))
            return 0
        }
        return bytes.count
    }

    /// Keeps decoded body bytes in memory; `false` (the state failed) when they pass
    /// `maxResponseSize`.
    func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard state.takesDecodedBytes(bytes.count) else { return false }
        if !bytes.isEmpty {
            body.append(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        return true
    }

    /// Takes a line of a response head; at the final head's end, decides where the body goes.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        guard let event = state.takeHeadLine(line) else { return 0 }
        switch event {
        case .finalStatus(let status):
            events.responseStarted(status: status)
        case .headComplete:
            reserveBodyCapacity()
            let codings = decodesContent ? ContentCoding.codings(in: state.head.headers.values(for: "Content-Encoding")) ?? [] : []
            // A declared length past the limit ends the exchange here, its head kept.
            let status = state.head.status ?? 200
            guard state.headEnded(codings: codings, hasBody: request.method != .head && status != 204 && status != 304) else { return 0 }
            if bodyChannel != nil {
                if let caller = state.streamHeadEnded() { deliverStreamedHead(to: caller, codings: codings) }
            } else {
                // Asked only when there is a coding to undo: a class's failable init allocates
                // the object before it can return nil.
                decoder = codings.isEmpty ? nil : ContentDecoder(codings, keepingReceived: request.keepsRawBody)
            }
        case nil:
            break
        }
        return line.count
    }

    /// Sizes the in-memory body once from `Content-Length`, so it is not regrown chunk by chunk.
    func reserveBodyCapacity() {
        guard !state.head.headers.contains("Content-Encoding"),
            let length = state.head.headers["Content-Length"].flatMap(Int.init), length > 0
        else { return }
        body.reserveCapacity(min(length, 16 << 20))
    }

    /// Hands a streamed response back to `continuation` as soon as its head has ended; the body
    /// follows through its channel, which the reader drains and the transfer fills.
    func deliverStreamedHead(to continuation: UnsafeContinuation<Response, any Error>, codings: [ContentCoding] = []) {
        guard let bodyChannel else { return }
        bodyChannel.attach(ResponseBodyChannel.Producer(
            resume: { [self] in loop.enqueue(.resumeReceiving(self)) },
            cancel: { [self] in requestCancel() }
        ))
        let metrics = readMetrics()
        continuation.resume(returning: Response(
            status: state.head.status ?? easy.long(CURLINFO_RESPONSE_CODE),
            headers: state.head.headers,
            url: request.url,
            httpVersion: metrics.httpVersion,
            metrics: metrics,
            bodyStream: ResponseBodyStream(
                channel: bodyChannel, url: request.url, transport: owner,
                decoding: codings, maxDecodedSize: request.maxResponseSize
            )
        ))
    }

    /// Hands libcurl the next bytes of the request body, or pauses sending for a streamed one.
    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let streamedUpload {
            switch streamedUpload.read(into: buffer) {
            case .bytes(let count):
                if streamedUpload.gaveDeclaredLength { reportRequestSent() }
                return count
            case .wait:
                state.producerFellBehind()
                return Int(CURL_READFUNC_PAUSE)
            case .end:
                reportRequestSent()
                return 0
            case .failed(let error):
                state.fail(error)
                return Int(CURL_READFUNC_ABORT)
            }
        }
        do {
            guard let upload else { return 0 }
            let count = try upload.read(into: buffer)
            // libcurl stops asking once it has `size` bytes, so the last byte read, not a read
            // of 0, marks the body as handed over.
            if upload.isExhausted { reportRequestSent() }
            return count
        } catch {
            state.fail(error)
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// Rewinds the request body for libcurl to send it again.
    func rewindBody(to offset: Int64) -> Int32 {
        guard let upload, upload.rewind(to: offset) else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        state.bodyRewound()
        return Int32(CURL_SEEKFUNC_OK)
    }
}
