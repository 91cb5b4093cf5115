import Foundation
import SluiceCore

/// A plain-HTTP/1.1 transport over POSIX sockets, written on Sluice's public API alone, from
/// outside its package: the proof that the `Transport` seam is one anyone can cross.
///
/// One connection per exchange (`Connection: close`), blocking socket calls, `http` only (it has no
/// TLS, so a pinned request is refused by the task's own trust answer). It reports every event,
/// asks trust before it writes a byte, streams a response body through a `ResponseBodyWriter`,
/// refuses a `.file` destination (the pipeline writes downloads from the stream), and sends a
/// streamed upload chunked or with its declared length. It passes `TransportConformance`, as `CurlTransport` does.
public struct SocketTransport: Transport {
    /// Creates the transport.
    public init() {}

    public func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
        if case .file = request.destination { throw SluiceError.fileDestinationAtTransport(url: request.url) }
        let control = SocketControl()
        events.transferStarted(url: request.url, control: control)
        let started = ContinuousClock.now
        do {
            let exchange = try SocketExchange(request: request, events: events, control: control)
            let response = try await withTaskCancellationHandler {
                try await exchange.run(transport: self, started: started)
            } onCancel: {
                exchange.cancel()
            }
            return response
        } catch let error as SluiceError {
            events.transferFinished(control: control, metrics: nil)
            throw error
        } catch {
            events.transferFinished(control: control, metrics: nil)
            throw SluiceError(kind: .transport, stage: "transport", url: request.url, message: "\(error)", underlying: error)
        }
    }
}

/// Suspension is not offered: bytes keep moving.
final class SocketControl: TransferControl {
    func suspend() {}
    func resume() {}
}
