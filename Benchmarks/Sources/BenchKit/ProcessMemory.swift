import Foundation

/// This process's memory as the kernel counts it (`/proc/self/status`).
enum ProcessMemory {
    /// Resident memory now, in bytes (`VmRSS`).
    static var resident: Int { field("VmRSS") }

    /// The most resident memory so far, in bytes (`VmHWM`, the high-water mark).
    static var peakResident: Int { field("VmHWM") }

    /// A `kB` field of `/proc/self/status`, in bytes; 0 when the file or field is missing.
    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}

extension Int {
    /// Bytes as mebibytes.
    var mebibytes: Double { Double(self) / 1_048_576 }
}
