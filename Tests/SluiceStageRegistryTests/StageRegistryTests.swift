import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceStageRegistry

/// What a stage module builds against, without a YAML parser: nodes made by hand, as the loader
/// makes them from a file.
@Suite("The stage registry, descriptors and typed options, without libyaml")
struct StageRegistryTests {
    static func scalar(_ text: String, quoted: Bool = false, line: Int = 1) -> YAMLNode {
        YAMLNode(.scalar(text, quoted: quoted), mark: .init(line: line, column: 3))
    }

    static func pair(_ key: String, _ value: YAMLNode) -> YAMLNode.Pair {
        YAMLNode.Pair(key: scalar(key, line: value.mark.line), value: value)
    }

    static let descriptor = StageDescriptor(
        name: "stamp", summary: "Adds a header.",
        options: [OptionDescriptor("value", .string, required: true, summary: "The value.")]
    ) { options in HeaderInjection(headers: ["X-Stamp": options.string("value") ?? ""]) }

    @Test("a name is registered once; the second is refused, naming it")
    func registerOnce() throws {
        var registry = StageRegistry()
        try registry.register(StageRegistryTests.descriptor)
        #expect(registry["stamp"]?.summary == "Adds a header.")
        #expect(registry["other"] == nil)
        #expect(throws: SluiceError.self) { try registry.register(StageRegistryTests.descriptor) }
        do {
            try registry.register(StageRegistryTests.descriptor)
        } catch {
            #expect(error.kind == .configuration && error.message == "a stage named 'stamp' is already registered")
        }
    }

    @Test("a descriptor's placement is its stage type's, known before any stage is made; a custom stage's is call")
    func placementFromType() throws {
        struct Custom: RequestStage {
            func prepare(_ request: Request, context: TaskContext) async throws -> Request { request }
        }
        struct Observer: RequestStage {
            static var placement: StagePlacement { .exchangeObserver }
            func prepare(_ request: Request, context: TaskContext) async throws -> Request { request }
        }
        #expect(StageRegistryTests.descriptor.placement == .headerInjection)
        #expect(StageDescriptor(name: "custom", summary: "Does nothing.") { _ in Custom() }.placement == .call)
        let observer = StageDescriptor(name: "observer", summary: "Sees each exchange.") { _ in Observer() }
        #expect(observer.placement == .exchangeObserver)
        let options = StageOptions(owner: "observer", pairs: [], mark: .init(line: 1, column: 1), directory: URL(fileURLWithPath: "/"), environment: [:])
        #expect(try observer.make(options).placement == .exchangeObserver)
    }

    @Test("options read typed values, a lone value as a list of one, objects with their owner's path, relative paths from the file's folder")
    func typedOptions() throws {
        let options = StageOptions(
            owner: "stamp",
            pairs: [
                StageRegistryTests.pair("value", StageRegistryTests.scalar("v1")),
                StageRegistryTests.pair("enabled", StageRegistryTests.scalar("True")),
                StageRegistryTests.pair("attempts", StageRegistryTests.scalar("3")),
                StageRegistryTests.pair("wait", StageRegistryTests.scalar("250ms")),
                StageRegistryTests.pair("methods", StageRegistryTests.scalar("GET")),
                StageRegistryTests.pair("statuses", YAMLNode(.sequence([StageRegistryTests.scalar("2xx"), StageRegistryTests.scalar("404")]), mark: .init(line: 6, column: 3))),
                StageRegistryTests.pair("file", StageRegistryTests.scalar("keys/a.pem", line: 7)),
                StageRegistryTests.pair("nested", YAMLNode(.mapping([StageRegistryTests.pair("inner", StageRegistryTests.scalar("x", line: 8))]), mark: .init(line: 8, column: 3))),
            ],
            mark: .init(line: 1, column: 1), directory: URL(fileURLWithPath: "/etc/pipelines"), environment: [:]
        )
        #expect(options.names == ["value", "enabled", "attempts", "wait", "methods", "statuses", "file", "nested"])
        #expect(options.string("value") == "v1" && options.bool("enabled") == true && options.integer("attempts") == 3)
        #expect(options.duration("wait") == .milliseconds(250))
        #expect(options.strings("methods") == ["GET"])
        #expect(options.statusCodes("statuses")?.contains(204) == true && options.statusCodes("statuses")?.contains(404) == true)
        #expect(options.statusCodes("statuses")?.contains(500) == false)
        #expect(options.path("file") == "/etc/pipelines/keys/a.pem")
        #expect(options.options("nested")?.owner == "stamp.nested" && options.options("nested")?.string("inner") == "x")
        #expect(options.mark(of: "file").line == 7 && options.mark(of: "absent").line == 1)
        #expect(options.string("absent") == nil)
    }

    @Test("a value of the wrong type is a problem at its own line, in the option's words")
    func problems() {
        let integer = OptionDescriptor.ValueType.integer
        #expect(integer.problems(in: StageRegistryTests.scalar("3"), option: "attempts").isEmpty)
        let wrong = integer.problems(in: StageRegistryTests.scalar("three", line: 4), option: "attempts")
        #expect(wrong.map(\.message) == ["attempts must be an integer, not 'three'"] && wrong.map(\.mark.line) == [4])
        let list = OptionDescriptor.ValueType.list(.statusCode)
        let badElement = list.problems(in: YAMLNode(.sequence([StageRegistryTests.scalar("200"), StageRegistryTests.scalar("abc", line: 5)]), mark: .init(line: 4, column: 1)), option: "statuses")
        #expect(badElement.map(\.mark.line) == [5])
        #expect(OptionDescriptor.ValueType.string.problems(in: StageRegistryTests.scalar(""), option: "value").map(\.message) == ["value needs a value: string"])
    }

    @Test("scalars become JSON by YAML 1.2's core schema; quoted ones stay strings")
    func coreSchema() throws {
        #expect(try StageRegistryTests.scalar("true").jsonValue() == .bool(true))
        #expect(try StageRegistryTests.scalar("0x1F").jsonValue() == .int(31))
        #expect(try StageRegistryTests.scalar("1.5").jsonValue() == .double(1.5))
        #expect(try StageRegistryTests.scalar("~").jsonValue() == .null)
        #expect(try StageRegistryTests.scalar("1", quoted: true).jsonValue() == .string("1"))
        let mapping = YAMLNode(.mapping([YAMLNode.Pair(key: YAMLNode(.sequence([]), mark: .init(line: 2, column: 1)), value: StageRegistryTests.scalar("x"))]), mark: .init(line: 2, column: 1))
        #expect(throws: YAMLNode.SyntaxError(message: "a mapping key must be a scalar to become JSON", mark: .init(line: 2, column: 1))) { try mapping.jsonValue() }
    }
}
