import Foundation

/// The words `${random-word()}` draws from: the system's word list, read once.
enum RandomWords {
    /// Where the list is: Debian's `wamerican` (and most Unix systems) put one there.
    static let path = "/usr/share/dict/words"

    /// Its words of three or more lower-case ASCII letters (no proper nouns, no possessives);
    /// empty when there is no list.
    static let list: [String] = {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            line.count >= 3 && line.utf8.allSatisfy { (0x61...0x7A).contains($0) } ? String(line) : nil
        }
    }()
}
