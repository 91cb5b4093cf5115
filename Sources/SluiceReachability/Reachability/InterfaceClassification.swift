internal import CNetlink
import Foundation
import SluiceCore

extension InterfaceKind {
    /// The kind of a link, from its hardware type and what sysfs says of it
    /// (`/sys/class/net/NAME/wireless`, `DEVTYPE=` in its `uevent`), as NetworkManager and
    /// systemd-networkd tell Wi-Fi and mobile broadband from Ethernet.
    init(_ link: RouteNetlink.Link, sysfs: String = "/sys/class/net") {
        let folder = "\(sysfs)/\(link.name)"
        let deviceType = (try? String(contentsOfFile: "\(folder)/uevent", encoding: .utf8))?
            .split(separator: "\n")
            .first { $0.hasPrefix("DEVTYPE=") }
            .map { String($0.dropFirst("DEVTYPE=".count)) }
        switch Int32(link.hardwareType) {
        case ARPHRD_LOOPBACK:
            self = .loopback
        case _ where deviceType == "wwan":
            self = .cellular
        case ARPHRD_ETHER:
            let wireless = deviceType == "wlan" || FileManager.default.fileExists(atPath: "\(folder)/wireless") || FileManager.default.fileExists(atPath: "\(folder)/phy80211")
            self = wireless ? .wireless : .wired
        case ARPHRD_RAWIP:
            self = .cellular
        default:
            self = .other
        }
    }
}
