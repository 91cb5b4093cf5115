import Foundation
import Sluice

/// `sluice send -w FORMAT`, as curl's `--write-out`: the format printed to standard output after
/// the body, `%{NAME}` replaced by a figure of the exchange, `%%` a percent sign, and `\n`, `\r`,
/// `\t` and `\\` read as curl reads them. `@FILE` reads the format from a file.
struct WriteOut {
    /// The variables taken, curl's names.
    static let variables = [
        "http_code", "response_code", "url_effective", "content_type", "size_download", "num_redirects",
        "time_namelookup", "time_connect", "time_appconnect", "time_pretransfer", "time_starttransfer", "time_total", "json",
    ]

    /// The format's pieces: text, or a variable's name.
    private let pieces: [Piece]

    private enum Piece {
        case text(String)
        case variable(String)
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
                } else if rest.first == "{" {
                    guard let close = rest.firstIndex(of: "}") else { throw WriteOutError("'%{' without its '}'") }
                    let name = String(rest[rest.index(after: rest.startIndex)..<close])
                    guard WriteOut.variables.contains(name) else {
                        throw WriteOutError("%{\(name)} is not a variable sluice send writes (it writes \(WriteOut.variables.joined(separator: ", ")))")
                    }
                    if !text.isEmpty { pieces.append(.text(text)) }
                    text = ""
                    pieces.append(.variable(name))
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
        var bodyBytes: Int64
        var redirects: Int
        var metrics: TransferMetrics?
    }

    /// The format filled in.
    func text(_ figures: Figures) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .variable(let name): WriteOut.value(name, figures).text
            }
        }.joined()
    }

    /// A variable's value: as curl prints it, and as JSON for `%{json}`.
    private static func value(_ name: String, _ figures: Figures) -> (text: String, json: JSONValue) {
        func seconds(_ duration: Duration?) -> (String, JSONValue) {
            let value = Double((duration ?? .zero).components.seconds) + Double((duration ?? .zero).components.attoseconds) / 1e18
            return (String(format: "%.6f", value), .double(value))
        }
        let metrics = figures.metrics
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
        case "time_starttransfer": return seconds(metrics?.timeToFirstByte)
        case "time_total": return seconds(metrics?.total)
        default:
            var object: [(String, JSONValue)] = []
            for variable in variables where variable != "json" { object.append((variable, value(variable, figures).json)) }
            return ((try? JSONWriter().string(from: .object(JSONObject(object)))) ?? "{}", .null)
        }
    }
}

/// A `-w` format that cannot be used, and why.
struct WriteOutError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
