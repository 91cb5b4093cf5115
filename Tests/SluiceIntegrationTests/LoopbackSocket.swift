import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Raw loopback sockets for the tests that need a peer misbehaving below HTTP.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A port on 127.0.0.1 that nothing listens on (bound once, then closed).
    static func unusedPort() throws -> Int {
        let listener = try listen(backlog: 1)
        defer { close(listener.descriptor) }
        return listener.port
    }

    /// A listening socket whose accept queue is full, so new connections hang in the handshake:
    /// the way to make a connect timeout happen on loopback. Close `descriptors` when done.
    static func stalledListener() throws -> (port: Int, descriptors: [Int32]) {
        let listener = try listen(backlog: 0)
        var descriptors = [listener.descriptor]
        var address = loopback(port: listener.port)
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(client)
        }
        return (listener.port, descriptors)
    }

    private static func listen(backlog: Int32) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            close(descriptor)
            throw Failure(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
