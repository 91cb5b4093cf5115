import SluiceCore
import SluiceStageRegistry

/// Several `header-injection` stages in one file, made to work together: each field is set by one
/// of them, and the defaults (`User-Agent`, `Accept-Language`) come from the first alone, unless
/// another sets the field.
///
/// Stages of one rank run in the order listed, and a header-injection stage never replaces a field
/// the request already has: of two stages that set one field, the first listed would win and the
/// other's value would be dropped in silence; and a stage that sets neither `user-agent` nor
/// `accept-language` would send their defaults over what the next one sets. So two stages that set
/// one field are refused, naming both, and a stage that leaves a default unset leaves it to the
/// others.
enum HeaderInjectionEntries {
    /// Two entries that set one field.
    struct Overlap {
        /// The entry listed first.
        var first: StageSpec
        /// The entry listed after it.
        var second: StageSpec
        /// The field, as the second entry writes it.
        var field: String
    }

    /// The stage's name.
    static let name = "header-injection"

    /// The options that stand for a field: `user-agent`, `accept-language` and `authorization`.
    private static let optionFields = ["user-agent": "User-Agent", "accept-language": "Accept-Language", "authorization": "Authorization"]

    /// The defaults a stage sends when its options leave them unset.
    private static let defaulted = ["user-agent", "accept-language"]

    /// `entries` with `none` given to each default a `header-injection` entry leaves unset when
    /// another such entry sets the field or is listed before it, and the overlaps between them.
    /// A file with one such entry (or none) is returned as it is.
    static func arranged(_ entries: [StageSpec]) -> (entries: [StageSpec], overlaps: [Overlap]) {
        // One such entry, nearly every file: nothing to arrange, and nothing allocated to find so.
        guard entries.lazy.filter({ $0.name == name }).dropFirst().first != nil else { return (entries, []) }
        let indices = entries.indices.filter { entries[$0].name == name }
        let written = indices.map { fields(of: entries[$0]) }
        var overlaps: [Overlap] = []
        var setBy: [String: Int] = [:]
        for (index, fields) in zip(indices, written) {
            for (key, shown) in fields {
                if let first = setBy[key] {
                    overlaps.append(Overlap(first: entries[first], second: entries[index], field: shown))
                } else {
                    setBy[key] = index
                }
            }
        }
        var arranged = entries
        for (position, index) in indices.enumerated() {
            let own = Set(written[position].map(\.key))
            for option in defaulted where !own.contains(option) && (position > 0 || setBy[option] != nil) {
                let mark = entries[index].mark
                arranged[index].options.append(YAMLNode.Pair(key: YAMLNode(.scalar(option, quoted: false), mark: mark), value: YAMLNode(.scalar("none", quoted: false), mark: mark)))
            }
        }
        return (arranged, overlaps)
    }

    /// The fields an entry sets, by lowercased name (`user-agent` for both the option and a
    /// `User-Agent` in `headers`), each with its spelling.
    private static func fields(of entry: StageSpec) -> [(key: String, shown: String)] {
        var fields: [(key: String, shown: String)] = []
        for pair in entry.options {
            guard let option = pair.key.scalar else { continue }
            if option == "headers" {
                for header in pair.value.pairs ?? [] {
                    if let field = header.key.scalar { fields.append((field.asciiLowercased, field)) }
                }
            } else if let shown = optionFields[option] {
                fields.append((shown.asciiLowercased, shown))
            }
        }
        return fields
    }
}
