internal import CNetlink
import Foundation
import SluiceCore

/// A socket on the kernel's routing netlink (rtnetlink, `man 7 rtnetlink`): either subscribed to
/// the kernel's notifications of links, addresses and routes (IPv4 and IPv6), or used for
/// questions: the route the kernel would take to an address (`RTM_GETROUTE`, what `ip route get`
/// asks) and the state of a link (`RTM_GETLINK`).
final class RouteNetlink: @unchecked Sendable {
    /// A message read from the socket: its type and its payload after the header.
    struct Message {
        var type: UInt16
        var payload: ArraySlice<UInt8>
    }

    /// The route the kernel picked for an address.
    struct Route: Hashable {
        /// `RTN_UNICAST`, `RTN_LOCAL`, `RTN_UNREACHABLE`, ...
        var type: UInt8
        /// The index of the interface it leaves by, when it has one.
        var outputInterface: Int32?
    }

    /// A network interface.
    struct Link: Hashable {
        var index: Int32
        var name: String
        /// `ARPHRD_ETHER`, `ARPHRD_LOOPBACK`, ...
        var hardwareType: UInt16
        /// `IFF_UP`, `IFF_RUNNING`, ...
        var flags: UInt32

        /// Up, and with a carrier (`IFF_RUNNING`); a loopback needs only to be up.
        var isUsable: Bool {
            let up = flags & UInt32(IFF_UP) != 0
            let running = flags & UInt32(IFF_RUNNING) != 0
            return up && (running || hardwareType == UInt16(ARPHRD_LOOPBACK))
        }
    }

    private let descriptor: Int32
    private var sequence: UInt32 = 0
    private let lock = NSLock()

    /// Opens a socket; with `subscribed`, it receives the kernel's notifications of links,
    /// addresses and routes.
    /// - Throws: `.transport` when the kernel refuses the socket.
    init(subscribed: Bool) throws(SluiceError) {
        descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_ROUTE)
        guard descriptor >= 0 else { throw RouteNetlink.failure("cannot open a routing netlink socket") }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = subscribed ? sluice_rtmgrp_all() : 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            let error = RouteNetlink.failure("cannot bind a routing netlink socket")
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// The socket, for `poll`.
    var fileDescriptor: Int32 { descriptor }

    /// The route the kernel would use to reach `address` (4 or 16 bytes); `nil` when it has
    /// none (the network or host is unreachable).
    func route(to address: [UInt8]) throws(SluiceError) -> Route? {
        var header = rtmsg()
        header.rtm_family = UInt8(address.count == 4 ? AF_INET : AF_INET6)
        header.rtm_dst_len = UInt8(address.count * 8)
        var payload = RouteNetlink.bytes(of: header)
        RouteNetlink.appendAttribute(type: UInt16(RTA_DST.rawValue), value: address, to: &payload)
        guard let reply = try ask(type: UInt16(RTM_GETROUTE), payload: payload), reply.type == UInt16(RTM_NEWROUTE) else { return nil }
        let message: rtmsg = RouteNetlink.load(reply.payload)
        var route = Route(type: message.rtm_type, outputInterface: nil)
        for (type, value) in RouteNetlink.attributes(reply.payload.dropFirst(MemoryLayout<rtmsg>.size)) where type == UInt16(RTA_OIF.rawValue) && value.count >= 4 {
            let index: UInt32 = RouteNetlink.load(value)
            route.outputInterface = Int32(bitPattern: index)
        }
        return route
    }

    /// The interface with this index; `nil` when there is none.
    func link(index: Int32) throws(SluiceError) -> Link? {
        var header = ifinfomsg()
        header.ifi_family = UInt8(AF_UNSPEC)
        header.ifi_index = index
        guard let reply = try ask(type: UInt16(RTM_GETLINK), payload: RouteNetlink.bytes(of: header)), reply.type == UInt16(RTM_NEWLINK) else { return nil }
        let message: ifinfomsg = RouteNetlink.load(reply.payload)
        var link = Link(index: message.ifi_index, name: "", hardwareType: message.ifi_type, flags: message.ifi_flags)
        for (type, value) in RouteNetlink.attributes(reply.payload.dropFirst(MemoryLayout<ifinfomsg>.size)) where type == UInt16(IFLA_IFNAME) {
            link.name = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
        }
        return link
    }

    /// Waits for the next notifications and returns them (a subscribed socket).
    func receive() throws(SluiceError) -> [Message] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else {
            // The kernel dropped notifications it could not queue: everything may have changed.
            if errno == ENOBUFS { return [Message(type: 0, payload: [])] }
            if errno == EINTR { return [] }
            throw RouteNetlink.failure("cannot read the routing netlink socket")
        }
        return RouteNetlink.messages(buffer[..<count])
    }

    // MARK: Questions

    /// Sends one request and reads its answer: the reply, or `nil` for a refusal (an error
    /// message, such as `ENETUNREACH` for a route).
    private func ask(type: UInt16, payload: [UInt8]) throws(SluiceError) -> Message? {
        lock.lock()
        defer { lock.unlock() }
        sequence &+= 1
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(MemoryLayout<nlmsghdr>.size + payload.count)
        header.nlmsg_type = type
        header.nlmsg_flags = UInt16(NLM_F_REQUEST)
        header.nlmsg_seq = sequence
        let request = RouteNetlink.bytes(of: header) + payload
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw RouteNetlink.failure("cannot write to the routing netlink socket") }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else {
                if errno == EINTR { continue }
                throw RouteNetlink.failure("cannot read the routing netlink socket")
            }
            for message in RouteNetlink.messages(buffer[..<count]) {
                if message.type == UInt16(NLMSG_ERROR) { return nil }
                if message.type != UInt16(NLMSG_DONE) { return message }
            }
        }
    }

    // MARK: Bytes

    private static func failure(_ what: String) -> SluiceError {
        SluiceError(kind: .transport, stage: "reachability", message: "\(what): \(String(cString: strerror(errno)))")
    }

    /// The messages in what one `recv` read; a truncated one ends the list.
    static func messages(_ bytes: ArraySlice<UInt8>) -> [Message] {
        records(bytes, header: nlmsghdr.self, length: { $0.nlmsg_len }, type: { $0.nlmsg_type }, align: sluice_nlmsg_align)
            .map { Message(type: $0.type, payload: $0.value) }
    }

    /// The `rtattr` attributes in a payload, as type and value; a malformed one ends the list.
    static func attributes(_ bytes: ArraySlice<UInt8>) -> [(UInt16, ArraySlice<UInt8>)] {
        records(bytes, header: rtattr.self, length: { UInt32($0.rta_len) }, type: { $0.rta_type }, align: sluice_rta_align)
            .map { ($0.type, $0.value) }
    }

    /// The length-prefixed records netlink nests at both levels (messages, and the attributes
    /// inside them): each a `Header` whose length counts itself, its value, then padding to the
    /// alignment. A record whose length is shorter than its header or runs past the bytes ends the
    /// list, which is all the kernel (or anything posing as it) can make of a malformed one.
    private static func records<Header>(
        _ bytes: ArraySlice<UInt8>, header: Header.Type, length: (Header) -> UInt32, type: (Header) -> UInt16, align: (UInt32) -> UInt32
    ) -> [(type: UInt16, value: ArraySlice<UInt8>)] {
        var records: [(type: UInt16, value: ArraySlice<UInt8>)] = []
        var offset = bytes.startIndex
        let headerSize = MemoryLayout<Header>.size
        while bytes.endIndex - offset >= headerSize {
            let header: Header = load(bytes[offset...])
            let size = Int(length(header))
            guard size >= headerSize, offset + size <= bytes.endIndex else { break }
            records.append((type(header), bytes[(offset + headerSize)..<(offset + size)]))
            offset += Int(align(UInt32(size)))
        }
        return records
    }

    /// A C structure read from the start of `bytes`; zeros for what `bytes` lacks.
    static func load<T>(_ bytes: ArraySlice<UInt8>) -> T {
        var padded = Array(bytes.prefix(MemoryLayout<T>.size))
        padded += [UInt8](repeating: 0, count: MemoryLayout<T>.size - padded.count)
        return padded.withUnsafeBytes { $0.loadUnaligned(as: T.self) }
    }

    static func bytes<T>(of value: T) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    private static func appendAttribute(type: UInt16, value: [UInt8], to payload: inout [UInt8]) {
        var header = rtattr()
        header.rta_len = UInt16(MemoryLayout<rtattr>.size + value.count)
        header.rta_type = type
        payload += bytes(of: header) + value
        payload += [UInt8](repeating: 0, count: Int(sluice_rta_align(UInt32(header.rta_len))) - Int(header.rta_len))
    }
}
