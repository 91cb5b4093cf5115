import Foundation
import SluiceCore

/// A stage entry's options as its factory reads them: variables already filled in, and every
/// value already checked against the stage's ``OptionDescriptor``s, so the accessors return
/// `nil` only for an option that was left out.
///
/// A factory that finds a combination it cannot work with throws ``Invalid`` naming the option,
/// or a `SluiceError` of kind `.configuration`; either becomes a diagnostic at the option's line.
public struct StageOptions: Sendable {
    /// A value the factory refuses, and the option it belongs to.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The option's name; `nil` for the entry as a whole.
        public var option: String?
        /// What is wrong.
        public var message: String

        /// Creates the error.
        public init(option: String?, message: String) {
            self.option = option
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// The stage's name, or the option path for a nested object (`header-injection.authorization`).
    public let owner: String
    /// Where the entry starts.
    public let mark: YAMLNode.Mark
    /// The folder of the pipeline file, against which relative paths are resolved; `nil` for the
    /// current directory.
    public let directory: URL?
    /// The environment the pipeline runs in.
    public let environment: [String: String]
    private let pairs: [YAMLNode.Pair]

    /// Creates options from a mapping's pairs (already rendered and checked).
    public init(owner: String, pairs: [YAMLNode.Pair], mark: YAMLNode.Mark, directory: URL?, environment: [String: String]) {
        self.owner = owner
        self.pairs = pairs
        self.mark = mark
        self.directory = directory
        self.environment = environment
    }

    /// The names given, in order.
    public var names: [String] { pairs.compactMap(\.key.scalar) }

    /// The value node of an option.
    public func node(_ name: String) -> YAMLNode? {
        pairs.first { $0.key.scalar?.hasSameCodePoints(as: name) == true }?.value
    }

    /// Where an option is written; the entry's mark when it is not.
    public func mark(of name: String) -> YAMLNode.Mark {
        pairs.first { $0.key.scalar?.hasSameCodePoints(as: name) == true }?.key.mark ?? mark
    }

    /// A scalar option's text.
    public func string(_ name: String) -> String? {
        node(name)?.scalar
    }

    /// A `boolean` option.
    public func bool(_ name: String) -> Bool? {
        string(name).map { $0.lowercased() == "true" }
    }

    /// An `integer` option.
    public func integer(_ name: String) -> Int? {
        string(name).flatMap { Int($0) }
    }

    /// A `duration` option.
    public func duration(_ name: String) -> Duration? {
        string(name).flatMap(DurationText.parse)
    }

    /// A `list` option's scalars; a lone value is a list of one.
    public func strings(_ name: String) -> [String]? {
        guard let node = node(name) else { return nil }
        return node.elements?.compactMap(\.scalar) ?? node.scalar.map { [$0] }
    }

    /// A `map` option's names and scalar values, in order.
    public func pairs(_ name: String) -> [(String, String)]? {
        node(name)?.pairs?.compactMap { pair in pair.key.scalar.flatMap { key in pair.value.scalar.map { (key, $0) } } }
    }

    /// An `object` option's own options.
    public func options(_ name: String) -> StageOptions? {
        guard let node = node(name), let pairs = node.pairs else { return nil }
        return StageOptions(owner: "\(owner).\(name)", pairs: pairs, mark: node.mark, directory: directory, environment: environment)
    }

    /// A `list of statusCode` option as a set of codes.
    public func statusCodes(_ name: String) -> StatusCodeSet? {
        strings(name).flatMap(StatusCodeSet.init(parsingEach:))
    }

    /// An option of any type, as JSON.
    public func json(_ name: String) -> JSONValue? {
        try? node(name)?.jsonValue()
    }

    /// A path option, resolved against the pipeline file's folder when relative.
    public func path(_ name: String) -> String? {
        string(name).map { StageOptions.resolve($0, against: directory) }
    }

    /// `path` resolved against `directory` when it is relative.
    package static func resolve(_ path: String, against directory: URL?) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return directory.appendingPathComponent(path).path
    }
}
