import Foundation
import SluiceCore
import SluiceStageRegistry

/// Gives every request an id of its own in a header, so a server's logs and the client's can be
/// matched: `X-Request-ID: 3F2504E0-4F89-41D3-9A0C-0305E82C3301`.
///
/// This folder is the template for a stage module loaded at run time: copy it, rename the stage,
/// build it with `scripts/build-stage-module`, and list the `.so` under a pipeline's `plugins:`.
struct RequestID: RequestStage {
    /// The header's name.
    var header = "X-Request-ID"
    /// Text put before each id.
    var prefix = ""

    var name: String { "request-id" }

    func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        var request = request
        if !request.headers.contains(header) {
            request.headers[header] = prefix + UUID().uuidString
        }
        return request
    }
}
