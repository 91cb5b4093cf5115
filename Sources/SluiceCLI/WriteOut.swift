import Foundation
import Sluice

/// `sluice send -w FORMAT`, as curl's `--write-out`: the format printed to standard output after
/// the body, `%{NAME}` replaced by a figure of the exchange, `%header{NAME}` by a response header
/// field's value, `%%` a percent sign, and `\n`, `\r`, `\t` and `\\` read as curl reads them.
/// `@FILE` reads the format from a file. Every curl 7.88 variable that means something for an HTTP
/// exchange is taken, timed over the redirects followed as curl times them, and
/// `%{onerror}`; the others (FTP's, proxy TLS's, `%{certs}`, `%{stderr}`) are refused by name, and
/// a `%{` never closed is text, as curl writes it.
struct WriteOut {
    /// The variables taken, curl's names.
    static let variables = [
        "http_code", "response_code", "url_effective", "content_type", "size_download", "num_redirects",
        "time_namelookup", "time_connect", "time_appconnect", "time_pretransfer", "time_starttransfer", "time_total",
        "speed_download", "speed_upload", "size_header", "size_request", "size_upload", "num_headers", "header_json",
        "http_version", "scheme", "method", "url", "redirect_url", "exitcode", "errormsg", "num_connects", "local_port",
        "remote_ip", "remote_port", "json", "time_redirect", "urlnum", "filename_effective", "referer", "local_ip",
        "ssl_verify_result", "http_connect", "onerror",
    ]

    /// The format's pieces: text, or a variable's name.
    private let pieces: [Piece]

    private enum Piece {
        case text(String)
        case variable(String)
        case header(String)
        /// `%{onerror}`: what follows is written only when the request failed.
        case onError
    }

    /// Reads a format.
    /// - Throws: a message naming a variable curl has and Sluice does not take, or an unclosed `%{`.
    init(_ format: String) throws(WriteOutError) {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(format)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "\\":
                switch rest.first {
                case "n": text.append("\n")
                case "r": text.append("\r")
                case "t": text.append("\t")
                case "\\": text.append("\\")
                default: text.append("\\"); continue
                }
                rest = rest.dropFirst()
            case "%":
                if rest.first == "%" {
                    text.append("%")
                    rest = rest.dropFirst()
                } else if rest.hasPrefix("header{") {
                    guard let close = rest.firstIndex(of: "}") else { throw WriteOutError("'%header{' without its '}'") }
                    if !text.isEmpty { pieces.append(.text(text)) }
                    text = ""
                    pieces.append(.header(String(rest[rest.index(rest.startIndex, offsetBy: 7)..<close])))
                    rest = rest[rest.index(after: close)...]
                } else if rest.first == "{" {
                    // As curl: a '%{' never closed is text.
                    guard let close = rest.firstIndex(of: "}") else {
                        text.append("%")
                        continue
                    }
                    let name = String(rest[rest.index(after: rest.startIndex)..<close])
                    guard WriteOut.variables.contains(name) else {
                        throw WriteOutError("%{\(name)} is not a variable sluice send writes (it writes \(WriteOut.variables.joined(separator: ", ")))")
                    }
                    if !text.isEmpty { pieces.append(.text(text)) }
                    text = ""
                    pieces.append(name == "onerror" ? .onError : .variable(name))
                    rest = rest[rest.index(after: close)...]
                } else {
                    text.append("%")
                }
            default:
                text.append(character)
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The figures of one exchange.
    struct Figures {
        var status: Int
        var url: String
        var contentType: String?
        /// The final body's bytes as they came on the wire; 0 when none was taken.
        var bodyBytes: Int64
        var redirects: Int
        var metrics: TransferMetrics?
        /// The method and URL asked for.
        var method = ""
        var requestedURL = ""
        /// The bytes of the request body.
        var uploadBytes: Int64 = 0
        /// The response heads, redirect hops first; empty when no response came.
        var heads: [Response] = []
        /// Where a redirect not followed leads.
        var redirectURL = ""
        /// The exit status and the error's message, when the request failed.
        var exitCode: Int32 = 0
        var errorMessage = ""
        /// The URL's place among those given, from 0.
        var urlNumber = 0
        /// The file the body was written to (`-o`, `-O`); empty for standard output.
        var outputFile = ""
        /// The request's `Referer` (`-e`).
        var referer = ""
    }

    /// The format filled in: up to a `%{onerror}` when the request did not fail.
    func text(_ figures: Figures) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let piece): text += piece
            case .variable(let name): text += WriteOut.value(name, figures).text
            case .header(let name): text += figures.heads.last?.headers.values(for: name).joined(separator: ", ") ?? ""
            case .onError: if figures.exitCode == 0 { return text }
            }
        }
        return text
    }

    /// A variable's value: as curl prints it, and as JSON for `%{json}`.
    private static func value(_ name: String, _ figures: Figures) -> (text: String, json: JSONValue) {
        func seconds(_ duration: Duration?) -> (String, JSONValue) {
            let value = Double((duration ?? .zero).components.seconds) + Double((duration ?? .zero).components.attoseconds) / 1e18
            return (String(format: "%.6f", value), .double(value))
        }
        let metrics = figures.metrics
        // As curl 7.88 times a request that followed redirects: time_redirect the hops before the
        // last, time_starttransfer and time_total from the first hop's start, the phases before
        // them the last hop's own.
        let redirecting = figures.heads.dropLast().reduce(Duration.zero) { $0 + ($1.metrics?.total ?? .zero) }
        let total = metrics.map { redirecting + $0.total }
        switch name {
        case "http_code", "response_code": return (String(format: "%03d", figures.status), .int(figures.status))
        case "url_effective": return (figures.url, .string(figures.url))
        case "content_type": return (figures.contentType ?? "", figures.contentType.map(JSONValue.string) ?? .null)
        case "size_download": return ("\(figures.bodyBytes)", .int(Int(figures.bodyBytes)))
        case "num_redirects": return ("\(figures.redirects)", .int(figures.redirects))
        case "time_namelookup": return seconds(metrics?.dnsLookup)
        case "time_connect": return seconds(metrics.map { $0.dnsLookup + $0.connect })
        case "time_appconnect": return seconds(metrics.map { $0.tlsHandshake > .zero ? $0.dnsLookup + $0.connect + $0.tlsHandshake : .zero })
        case "time_pretransfer": return seconds(metrics?.timeToPreTransfer)
        case "time_starttransfer": return seconds(metrics.map { redirecting + $0.timeToFirstByte })
        case "time_redirect": return seconds(redirecting)
        case "time_total": return seconds(total)
        case "speed_download", "speed_upload":
            let total = Double((total ?? .zero).components.seconds) + Double((total ?? .zero).components.attoseconds) / 1e18
            let bytes = name == "speed_download" ? figures.bodyBytes : figures.uploadBytes
            let speed = total > 0 ? Int(Double(bytes) / total) : 0
            return ("\(speed)", .int(speed))
        case "size_header":
            let size = figures.heads.reduce(0) { $0 + $1.headText.utf8.count }
            return ("\(size)", .int(size))
        case "size_request":
            let size = max(0, Int(metrics?.bytesSent ?? 0) - Int(figures.uploadBytes))
            return ("\(size)", .int(size))
        case "size_upload": return ("\(figures.uploadBytes)", .int(Int(figures.uploadBytes)))
        case "num_headers":
            let count = figures.heads.last?.headers.count ?? 0
            return ("\(count)", .int(count))
        case "header_json":
            var fields: [(String, JSONValue)] = []
            for field in figures.heads.last?.headers ?? [:] {
                let name = field.name.asciiLowercased
                if let index = fields.firstIndex(where: { $0.0 == name }), case .array(let values) = fields[index].1 {
                    fields[index].1 = .array(values + [.string(field.value)])
                } else {
                    fields.append((name, .array([.string(field.value)])))
                }
            }
            let json = JSONValue.object(JSONObject(fields))
            return ((try? JSONWriter().string(from: json)) ?? "{}", json)
        case "http_version":
            let version = metrics?.httpVersion ?? .unknown
            let text = [HTTPVersion.http1_0: "1.0", .http1_1: "1.1", .http2: "2", .http3: "3"][version] ?? "0"
            return (text, .string(text))
        case "scheme":
            // As curl: none when no response came.
            let scheme = figures.heads.isEmpty ? "" : (URL(string: figures.url)?.scheme ?? "").uppercased()
            return (scheme, .string(scheme))
        case "method": return (figures.method, .string(figures.method))
        case "url": return (figures.requestedURL, .string(figures.requestedURL))
        case "redirect_url": return (figures.redirectURL, figures.redirectURL.isEmpty ? .null : .string(figures.redirectURL))
        case "exitcode": return ("\(figures.exitCode)", .int(Int(figures.exitCode)))
        case "errormsg": return (figures.errorMessage, figures.errorMessage.isEmpty ? .null : .string(figures.errorMessage))
        case "num_connects":
            // New connections over every hop, as curl counts them.
            let count = figures.heads.filter { $0.metrics?.connectionReused == false }.count
            return ("\(count)", .int(count))
        case "local_port": return ("\(metrics?.localPort ?? 0)", .int(metrics?.localPort ?? 0))
        case "remote_ip": return (metrics?.remoteAddress ?? "", .string(metrics?.remoteAddress ?? ""))
        case "remote_port": return ("\(metrics?.remotePort ?? 0)", .int(metrics?.remotePort ?? 0))
        case "local_ip": return (metrics?.localAddress ?? "", .string(metrics?.localAddress ?? ""))
        case "urlnum": return ("\(figures.urlNumber)", .int(figures.urlNumber))
        case "filename_effective": return (figures.outputFile, figures.outputFile.isEmpty ? .null : .string(figures.outputFile))
        case "referer": return (figures.referer, figures.referer.isEmpty ? .null : .string(figures.referer))
        case "ssl_verify_result": return ("\(metrics?.tlsVerifyResult ?? 0)", .int(metrics?.tlsVerifyResult ?? 0))
        case "http_connect":
            let status = metrics?.proxyTunnelStatus ?? 0
            return (String(format: "%03d", status), .int(status))
        default:
            var object: [(String, JSONValue)] = []
            // curl's %{json} holds every variable but itself and %{header_json}.
            for variable in variables where !["json", "header_json", "onerror"].contains(variable) { object.append((variable, value(variable, figures).json)) }
            return ((try? JSONWriter().string(from: .object(JSONObject(object)))) ?? "{}", .null)
        }
    }
}

/// A `-w` format that cannot be used, and why.
struct WriteOutError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
