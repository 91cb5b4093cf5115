import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceReachability

@Suite("rtnetlink messages and the reachability monitor on this machine")
struct RouteNetlinkTests {
    /// A netlink header: length, type, flags, sequence, port.
    static func header(length: UInt32, type: UInt16) -> [UInt8] {
        withUnsafeBytes(of: length.littleEndian) { Array($0) } + withUnsafeBytes(of: type.littleEndian) { Array($0) } + [UInt8](repeating: 0, count: 10)
    }

    @Test("messages and attributes with lengths that lie are cut short, never read past the buffer")
    func malformed() {
        let good = RouteNetlinkTests.header(length: 20, type: 24) + [1, 2, 3, 4]
        #expect(RouteNetlink.messages(good[...]).map(\.type) == [24])
        #expect(RouteNetlink.messages(good[...]).first?.payload.elementsEqual([1, 2, 3, 4]) == true)
        // A length past the end, a length shorter than a header, a truncated header.
        #expect(RouteNetlink.messages((RouteNetlinkTests.header(length: 4000, type: 24) + [1])[...]).isEmpty)
        #expect(RouteNetlink.messages(RouteNetlinkTests.header(length: 3, type: 24)[...]).isEmpty)
        #expect(RouteNetlink.messages((good + [9, 9, 9])[...]).count == 1)
        // Two messages, the first padded to four bytes.
        let two = RouteNetlinkTests.header(length: 17, type: 1) + [7, 0, 0, 0] + RouteNetlinkTests.header(length: 16, type: 3)
        #expect(RouteNetlink.messages(two[...]).map(\.type) == [1, 3])
        // Attributes: one good (length 8), then one that claims 200 bytes.
        let attributes: [UInt8] = [8, 0, 4, 0, 1, 2, 3, 4, 200, 0, 5, 0, 0, 0]
        let parsed = RouteNetlink.attributes(attributes[...])
        #expect(parsed.count == 1)
        #expect(parsed.first?.0 == 4)
        #expect(RouteNetlink.attributes([2, 0, 1, 0][...]).isEmpty)
        for length in 0..<64 {
            let noise = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            _ = RouteNetlink.messages(noise[...])
            _ = RouteNetlink.attributes(noise[...])
        }
    }

    @Test("addresses: literals read and written as inet_pton and inet_ntop do; a name resolves through getaddrinfo")
    func addresses() {
        #expect(ReachabilityMonitor.literalAddress("192.0.2.10") == [192, 0, 2, 10])
        #expect(ReachabilityMonitor.literalAddress("[::1]") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(ReachabilityMonitor.literalAddress("example.com") == nil)
        #expect(ReachabilityMonitor.literalAddress("1.2.3") == nil)
        #expect(ReachabilityMonitor.text([192, 0, 2, 10]) == "192.0.2.10")
        #expect(ReachabilityMonitor.text([0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]) == "2001:db8::1")
        #expect(ReachabilityMonitor.addresses(of: "localhost").contains([127, 0, 0, 1]))
        #expect(ReachabilityMonitor.addresses(of: "no-such-host.invalid").isEmpty)
    }

    @Test("on this machine: the loopback is reachable via loopback; a name that does not resolve is not reachable; stop ends the updates")
    func loopback() async throws {
        let monitor = ReachabilityMonitor(host: "localhost")
        try monitor.start()
        #expect(await monitor.knownStatus() == .reachable(.loopback))
        #expect(monitor.interfaceName == "lo")
        let updates = monitor.updates()
        monitor.stop()
        var seen: [ReachabilityUpdate] = []
        for await update in updates { seen.append(update) }
        #expect(seen.map(\.status) == [.reachable(.loopback)])
        #expect(seen.map(\.interfaceName) == ["lo"])
        #expect(seen.first?.addresses?.contains("127.0.0.1") == true)

        let nowhere = ReachabilityMonitor(host: "no-such-host.invalid")
        try nowhere.start()
        defer { nowhere.stop() }
        #expect(await nowhere.knownStatus() == .notReachable)
        #expect(nowhere.addresses == [])
        #expect(ReachabilityStatus.reachable(.wireless).description == "reachable via wireless")
    }

    @Test("interface kinds: the hardware type, then sysfs's wireless folder and DEVTYPE, as NetworkManager reads them")
    func interfaceKinds() throws {
        let sysfs = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-sysfs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: sysfs) }
        func link(_ name: String, _ type: Int32, wireless: Bool = false, devtype: String? = nil) throws -> RouteNetlink.Link {
            let folder = sysfs.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if wireless { try FileManager.default.createDirectory(at: folder.appendingPathComponent("wireless"), withIntermediateDirectories: true) }
            try "INTERFACE=\(name)\n\(devtype.map { "DEVTYPE=\($0)\n" } ?? "")".write(to: folder.appendingPathComponent("uevent"), atomically: true, encoding: .utf8)
            return RouteNetlink.Link(index: 2, name: name, hardwareType: UInt16(type), flags: 0)
        }
        #expect(InterfaceKind(try link("eth0", 1), sysfs: sysfs.path) == .wired)
        #expect(InterfaceKind(try link("wlp2s0", 1, wireless: true), sysfs: sysfs.path) == .wireless)
        #expect(InterfaceKind(try link("wlan1", 1, devtype: "wlan"), sysfs: sysfs.path) == .wireless)
        #expect(InterfaceKind(try link("wwan0", 1, devtype: "wwan"), sysfs: sysfs.path) == .cellular)
        #expect(InterfaceKind(try link("wwan1", 519), sysfs: sysfs.path) == .cellular)
        #expect(InterfaceKind(try link("lo", 772), sysfs: sysfs.path) == .loopback)
        #expect(InterfaceKind(try link("tun0", 65534), sysfs: sysfs.path) == .other)
        #expect(InterfaceKind(try link("wg0", 65534, devtype: "wireguard"), sysfs: sysfs.path) == .other)
    }
}
