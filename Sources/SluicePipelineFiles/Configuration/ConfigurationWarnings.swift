/// A file's warnings about its configuration, each said once: a warning several stages give
/// alike (every Hurl entry's trust stage under `-k`, or a pipeline's requests that each turn
/// certificate checks off) names its first place and counts the others, rather than
/// repeating itself a line an entry.
struct ConfigurationWarnings {
    /// The places beyond the first that a warning lists by name; past them it counts.
    static let placesNamed = 3

    private var warnings: [(message: String, locations: [String])] = []

    /// Adds `message`, given by the stage at `location` (`FILE:LINE:COLUMN`).
    mutating func add(_ message: String, at location: String) {
        if let index = warnings.firstIndex(where: { $0.message.utf8.elementsEqual(message.utf8) }) {
            // A place checked twice is one place.
            if !warnings[index].locations.contains(location) { warnings[index].locations.append(location) }
        } else {
            warnings.append((message, [location]))
        }
    }

    /// A line a warning, in the order they were first given: "FILE:1:1: warning: MESSAGE (also
    /// at FILE:3:1 and FILE:5:1)".
    var lines: [String] {
        warnings.map { warning in
            let line = "\(warning.locations[0]): warning: \(warning.message)"
            let others = Array(warning.locations.dropFirst())
            guard let last = others.last else { return line }
            let places =
                others.count > Self.placesNamed
                ? others.prefix(Self.placesNamed).joined(separator: ", ") + " and \(others.count - Self.placesNamed) more"
                : others.count == 1 ? last : others.dropLast().joined(separator: ", ") + " and " + last
            return line + " (also at \(places))"
        }
    }
}
