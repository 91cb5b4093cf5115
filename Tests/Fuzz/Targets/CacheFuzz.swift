import Foundation
import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// A hostile origin's cache headers: each line of the input is a `NAME: VALUE` field of a response
/// stored a minute ago. `Cache-Control` is read without a crash and with arguments in range; the
/// freshness lifetime and age are finite and never negative; a date read from any field writes
/// back and reads again as itself; and a `304` made of the same fields never changes the stored
/// body's type, length or coding.
enum CacheFuzz {
    private static let received = Date(timeIntervalSince1970: 1_800_000_000)

    static func run(_ input: [UInt8]) {
        var headers = HTTPHeaders()
        for line in String(decoding: input, as: UTF8.self).split(separator: "\n") {
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            let value = colon < line.endIndex ? line[line.index(after: colon)...].drop { $0 == " " } : ""
            headers.add(name: String(line[..<colon]), value: String(value))
        }
        let control = CacheControl(headers)
        for directive in control.directives {
            if case .value(let seconds) = control.seconds(directive.name) {
                require((0...2_147_483_648).contains(seconds), "\(directive.name) read as \(seconds)")
            }
        }
        let head = CachedResponse.Head(
            key: "https://example.com/", status: 200, headers: headers, url: "https://example.com/", httpVersion: .http1_1,
            requestTime: received.addingTimeInterval(-1), responseTime: received, vary: nil
        )
        let freshness = Freshness(head, now: received.addingTimeInterval(60))
        require(freshness.lifetime.isFinite && freshness.lifetime >= 0, "lifetime \(freshness.lifetime) for \(headers)")
        require(freshness.age.isFinite && freshness.age >= 60, "age \(freshness.age) for \(headers)")
        for field in headers {
            guard let date = HTTPDate.parse(field.value, now: received) else { continue }
            let written = HTTPDate.format(date)
            require(HTTPDate.parse(written) == date, "\(field.value.debugDescription) read as \(date), written \(written), which reads otherwise")
        }
        var stored = head
        stored.headers = ["Content-Type": "application/json", "Content-Length": "2", "ETag": "\"a\""]
        let merged = stored.merging(notModified: headers).headers
        require(
            merged["Content-Type"] == "application/json" && merged["Content-Length"] == "2" && merged["Content-Encoding"] == nil,
            "a 304 of \(headers) changed the stored body's fields: \(merged)"
        )
    }
}
