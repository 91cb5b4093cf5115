import Foundation

/// A header written as one `NAME: VALUE` line (a pipeline's `header-lines:`, Hurl's `[Options]
/// header:`): split at the first colon, the name and the value trimmed of spaces and tabs.
public struct HeaderLine: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// The field's value (may be empty).
    public var value: String

    /// Reads a line; `nil` when it has no colon, no name before it, or a name with a space, a
    /// tab or a control character, before, in or after it (which no field line holds: RFC 9110
    /// section 5.1, and RFC 9112 section 5.1 has a blank before the colon refused). The value's
    /// blanks around it are no part of it (RFC 9110 section 5.5) and go.
    ///
    /// The colon is found among the UTF-8 bytes: as a `Character`, a colon followed by a combining
    /// mark is one grapheme and no colon at all, where the bytes sent hold one.
    public init?(_ line: String) {
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let blanks = CharacterSet(charactersIn: " \t")
        let name = String(line[..<colon])
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
        self.name = name
        value = line[line.utf8.index(after: colon)...].trimmingCharacters(in: blanks)
    }
}
