import Foundation
import Sluice
import SluiceStageRegistry

/// `sluice send -v`: each exchange on standard error as curl's `-v` shows it, `>` lines for the
/// request sent and `<` lines for the response head, `*` lines for the connection and failures;
/// every redirect hop and challenge answer is an exchange of its own.
///
/// The `>` lines are the request head as libcurl wrote it to the wire (``Request/recordsSentHead``:
/// its own `Host`, `Accept` and `Accept-Encoding` included); for an exchange that failed before
/// anything was written, the request as Sluice handed it over. Secrets never show:
/// `Authorization` and `Proxy-Authorization` keep only their scheme (`Basic ***`), and `Cookie` and
/// `Set-Cookie` values are `***`, where curl prints them all.
struct VerboseLog: Stage {
    /// Hides credentials.
    let redactor: Redactor

    /// `verbose`.
    var name: String { "verbose" }

    /// The bottom of the chain, so it shows each exchange as sent.
    static var placement: StagePlacement { .exchangeObserver }

    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        var request = request
        request.recordsSentHead = true
        do {
            let response = try await next(request, context)
            Terminal.writeError(lines(request, response))
            return response
        } catch let error as SluiceError {
            Terminal.writeError(lines(request, nil) + "* \(error.message)\n")
            throw error
        }
    }

    /// The `*`, `>` and `<` lines of one exchange.
    private func lines(_ request: Request, _ response: Response?) -> String {
        var text = ""
        let host = request.url.host ?? ""
        if let metrics = response?.metrics, let address = metrics.remoteAddress, let port = metrics.remotePort {
            text += "* \(metrics.connectionReused ? "Re-using connection to" : "Connected to") \(host) (\(address)) port \(port)\n"
        }
        let version = response?.metrics?.httpVersion ?? response?.httpVersion
        let versionText = version.map { $0 == .unknown ? "HTTP/1.1" : $0.description } ?? "HTTP/1.1"
        if let sent = response?.metrics?.sentHead {
            // The head as written: its request line, then each field with secrets hidden.
            let lines = sent.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" })
            for (index, line) in lines.enumerated() where !line.isEmpty {
                if index > 0, let colon = line.firstIndex(of: ":") {
                    let name = String(line[..<colon])
                    text += "> \(name): \(shown(name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))\n"
                } else {
                    // The request line too: a password or token may stand in the URL.
                    text += "> \(redactor.redact(String(line)))\n"
                }
            }
        } else {
            text += "> \(redactor.redact("\(request.method.rawValue) \(request.url.requestTarget) \(versionText)"))\n"
            if !request.headers.contains("Host") {
                text += "> Host: \(host)\(request.url.port.map { ":\($0)" } ?? "")\n"
            }
            for field in request.headers {
                text += "> \(field.name): \(shown(field.name, field.value))\n"
            }
        }
        text += ">\n"
        guard let response else { return text }
        text += "< \(versionText) \(response.status)\(response.reasonPhrase.map { " " + $0 } ?? "")\n"
        for field in response.headers {
            text += "< \(field.name): \(shown(field.name, field.value))\n"
        }
        return text + "<\n"
    }

    private func shown(_ name: String, _ value: String) -> String {
        ["cookie", "set-cookie"].contains(name.lowercased()) ? "***" : redactor.redact(header: name, value: value)
    }
}
