internal import CCurl
import Synchronization
import SluiceCore

/// A request's header lines as libcurl's `CURLOPT_HTTPHEADER` list, built once and read by every
/// transfer that sends the same lines. libcurl reads the list and never writes it, so transfers
/// on any I/O thread may share it; it is freed when the last of them lets go of it.
final class CurlHeaderList: @unchecked Sendable {
    /// What the lines are made of: two requests with equal keys send the same lines.
    struct Key: Equatable {
        /// The request's own fields, compared byte for byte (``HTTPHeaders/Field``).
        let headers: HTTPHeaders
        /// The fields the request omits (`Name:` lines), in order.
        let omitted: [String]
        /// Whether the transport asks for compressed responses.
        let decodesContent: Bool
        /// Whether the request has a body, for which libcurl would add fields of its own.
        let sendsBody: Bool

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.decodesContent == rhs.decodesContent && lhs.sendsBody == rhs.sendsBody && lhs.headers == rhs.headers
                && lhs.omitted.count == rhs.omitted.count
                && zip(lhs.omitted, rhs.omitted).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
        }

        /// Whether the request omits `name`, ignoring ASCII case as field names do.
        private func omits(_ name: String) -> Bool {
            omitted.contains { $0.equalsIgnoringASCIICase(name) }
        }

        /// The lines libcurl sends in place of its own: each field of the request (`Name;` for an
        /// empty value, libcurl's spelling of one), then `Name:` for each field it must not send.
        var lines: [String] {
            var lines = headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
            // "Name:" is libcurl's way to send a field not at all, its own defaults included.
            for name in omitted where !headers.contains(name) {
                lines.append("\(name):")
            }
            if decodesContent, !headers.contains("Accept-Encoding"), !omits("Accept-Encoding") {
                lines.append("Accept-Encoding: \(ContentCoding.acceptEncoding)")
            }
            // libcurl adds these on its own for bodies; a request that did not ask for them sends neither.
            if sendsBody {
                if !headers.contains("Content-Type"), !omits("Content-Type") { lines.append("Content-Type:") }
                if !headers.contains("Expect"), !omits("Expect") { lines.append("Expect:") }
            }
            return lines
        }
    }

    /// The list libcurl reads.
    let raw: UnsafeMutablePointer<curl_slist>

    /// The list of `lines`; `nil` when there are none, or libcurl could not allocate it.
    init?(lines: [String]) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                return nil
            }
            list = longer
        }
        guard let list else { return nil }
        raw = list
    }

    deinit {
        curl_slist_free_all(raw)
    }
}

/// The header lists of an I/O thread's latest transfers, so that a transfer sending the same
/// lines as one of them (a load run, a client calling one API) reuses its list instead of
/// building one: a list costs two allocations a line in libcurl and one in Swift.
///
/// It keeps the lists of the last ``capacity`` distinct keys; a key is compared in full, byte for
/// byte, so a request never goes out with another's lines.
final class CurlHeaderLists: Sendable {
    /// How many lists are kept.
    static let capacity = 4

    /// The latest first.
    private let recent = Mutex<[(key: CurlHeaderList.Key, list: CurlHeaderList)]>([])

    /// The list for `key`: a kept one, or a new one, which is then kept in place of the oldest.
    /// `nil` when the request sends no line of its own.
    func list(for key: CurlHeaderList.Key) throws(SluiceError) -> CurlHeaderList? {
        let kept = recent.withLock { recent -> CurlHeaderList? in
            guard let index = recent.firstIndex(where: { $0.key == key }) else { return nil }
            if index != 0 { recent.insert(recent.remove(at: index), at: 0) }
            return recent[0].list
        }
        if let kept { return kept }
        let lines = key.lines
        if lines.isEmpty { return nil }
        guard let list = CurlHeaderList(lines: lines) else {
            throw SluiceError(kind: .transport, stage: "transport", message: "libcurl could not allocate the request's header list")
        }
        recent.withLock { recent in
            if recent.count == Self.capacity { recent.removeLast() }
            recent.insert((key, list), at: 0)
        }
        return list
    }
}
