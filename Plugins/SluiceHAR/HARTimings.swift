import SluiceCore
import SluiceStageRegistry

/// An entry's `timings` (HAR 1.2), in milliseconds, from libcurl's timeline of its exchanges.
///
/// `connect` includes `ssl`, as the format says; phases that did not happen (DNS, connect and TLS
/// on a reused connection, TLS over plain HTTP) are -1. `send` is 0: libcurl does not time the
/// writing of the request apart from the wait. Several exchanges (a stage below that retries or
/// follows redirects) add up. Without metrics (a transport that measures none) the whole time
/// is `wait`.
struct HARTimings {
    var blocked = -1.0
    var dns = -1.0
    var connect = -1.0
    var ssl = -1.0
    var send = 0.0
    var wait = 0.0
    var receive = 0.0

    init(metrics: [TransferMetrics], elapsed: Duration) {
        guard !metrics.isEmpty else {
            wait = HARTimings.milliseconds(elapsed)
            return
        }
        func add(_ value: Double, to field: inout Double) {
            field = max(field, 0) + value
        }
        for exchange in metrics {
            let tls = HARTimings.milliseconds(exchange.tlsHandshake)
            if !exchange.connectionReused {
                add(HARTimings.milliseconds(exchange.dnsLookup), to: &dns)
                add(HARTimings.milliseconds(exchange.connect) + tls, to: &connect)
                if tls > 0 { add(tls, to: &ssl) }
            }
            add(HARTimings.milliseconds(exchange.preparing), to: &blocked)
            wait += HARTimings.milliseconds(exchange.waiting)
            receive += HARTimings.milliseconds(exchange.receiving)
        }
    }

    /// The entry's `time`: the sum of the phases that happened (`ssl` is inside `connect`).
    var total: Double {
        [blocked, dns, connect, send, wait, receive].filter { $0 > 0 }.reduce(0, +)
    }

    var json: JSONValue {
        .object(JSONObject([
            ("blocked", .double(blocked)), ("dns", .double(dns)), ("connect", .double(connect)), ("ssl", .double(ssl)),
            ("send", .double(send)), ("wait", .double(wait)), ("receive", .double(receive)),
        ]))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        DurationText.milliseconds(duration)
    }
}
