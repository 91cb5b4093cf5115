import SluiceCore

/// Sizes as pipeline files write them: a whole number of bytes, or a number and a unit: `512KiB`,
/// `10MB`, `1.5GiB`. `KB`, `MB`, `GB` are powers of 1000 and `KiB`, `MiB`, `GiB` powers of 1024
/// (IEC 80000-13), as curl's `--max-filesize` and most tools read them; `B` is bytes.
public enum ByteCountText {
    /// The units, longest suffix first so `KiB` is not read as `B`.
    private static let units: [(suffix: String, bytes: Double)] = [
        ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1),
    ]

    /// The byte count `text` writes, or `nil` when it is not a non-negative number, optionally
    /// followed by one of the units, or is more than 2^62 bytes. Fractions of a byte round down.
    public static func parse(_ text: String) -> Int64? {
        let unit = units.first { text.hasSuffix($0.suffix) }
        let number = text.dropLast(unit?.suffix.count ?? 0)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value.isFinite
        else { return nil }
        let bytes = (value * (unit?.bytes ?? 1)).rounded(.down)
        guard bytes <= 0x1p62 else { return nil }
        return Int64(bytes)
    }
}
