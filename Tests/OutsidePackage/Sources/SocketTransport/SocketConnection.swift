import Foundation

/// A TCP connection with a read buffer: blocking calls, each one ended at once by `close()` from
/// another thread (a cancelled task's handler), which shuts the socket down.
final class SocketConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let closed = NSLock()
    private var isClosed = false
    /// The peer's address and port.
    let remoteAddress: String
    let remotePort: Int

    /// Connects to `host`:`port`, IPv4 or IPv6, whichever address answers first.
    init(host: String, port: Int) throws(SocketError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw SocketError(kind: .dns, message: "could not resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            let socket = Foundation.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if socket >= 0, connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                descriptor = socket
                var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
                getnameinfo(address.pointee.ai_addr, address.pointee.ai_addrlen, &name, socklen_t(name.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
                remoteAddress = String(cString: name)
                remotePort = Int(String(cString: service)) ?? port
                return
            }
            if socket >= 0 { Foundation.close(socket) }
            candidate = address.pointee.ai_next
        }
        throw SocketError(kind: .connect, message: "could not connect to \(host) port \(port)")
    }

    deinit {
        Foundation.close(descriptor)
    }

    /// Ends the connection: any call blocked on it returns.
    func close() {
        closed.lock()
        defer { closed.unlock() }
        guard !isClosed else { return }
        isClosed = true
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Writes all of `bytes`.
    func write(_ bytes: Data) throws(SocketError) {
        var failed = false
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { failed = true; return }
                offset += written
            }
        }
        if failed { throw SocketError(kind: .connectionLost, message: "the connection closed while the request was written") }
    }

    /// Reads more bytes into the buffer; `false` at the end of the stream.
    private func fill() throws(SocketError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count < 0 { throw SocketError(kind: .connectionLost, message: "reading failed: \(String(cString: strerror(errno)))") }
        buffer += chunk[0..<count]
        return count > 0
    }

    /// The next line, without its CRLF; `nil` at the end of the stream.
    func line() throws(SocketError) -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { return nil }
        }
    }

    /// Up to `limit` bytes, at least one unless the stream ended; empty at its end.
    func bytes(upTo limit: Int) throws(SocketError) -> Data {
        if buffer.isEmpty, try !fill() { return Data() }
        let count = min(limit, buffer.count)
        defer { buffer.removeFirst(count) }
        return Data(buffer[..<count])
    }
}

/// A socket call that failed, and how.
struct SocketError: Error {
    enum Kind { case dns, connect, connectionLost, protocolError }
    let kind: Kind
    let message: String
}
