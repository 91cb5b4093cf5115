import Foundation

/// Where a value sits inside parameters, written as a JSONPath (`$.user.tags[2]`), for errors
/// that must name the value they are about.
struct KeyPath: CustomStringConvertible {
    enum Component {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    mutating func push(_ component: Component) {
        components.append(component)
    }

    mutating func pop() {
        components.removeLast()
    }

    /// `$`, then `.key` for keys that are plain names, `['key']` for others, `[index]` for indexes.
    var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if KeyPath.isPlainName(key) {
                    text += "." + key
                } else {
                    text += "['" + key.replacingCodePoints(of: "\\", with: "\\\\").replacingCodePoints(of: "'", with: "\\'") + "']"
                }
            }
        }
        return text
    }

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
