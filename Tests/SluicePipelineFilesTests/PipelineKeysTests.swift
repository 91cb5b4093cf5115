import Testing
@testable import SluiceCore
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("Request, group and top-level keys are described once, as stage options are")
struct PipelineKeysTests {
    @Test("the schema's properties of a pipeline, a request and a group are the described keys, with their defaults")
    func schemaFromDescriptors() throws {
        let schema = PipelineSchema.schema(for: .builtIn)
        let entry = try #require(schema["definitions"]?["entry"]?["anyOf"])
        for (node, keys) in [(schema, PipelineKeys.topLevel), (try #require(entry[0]), PipelineKeys.request), (try #require(entry[1]), PipelineKeys.group)] {
            guard case .object(let properties)? = node["properties"] else {
                Issue.record("no properties in \(node)")
                continue
            }
            #expect(properties.map(\.key) == keys.map(\.name))
        }
        #expect(entry[0]?["required"] == ["path"])
        let interval = entry[0]?["properties"]?["retry"]?["anyOf"]?[1]?["properties"]?["interval"]?["description"]
        #expect(interval == .string("The pause between two attempts. Default: \(DurationText.string(PollingRetry.defaultInterval))."))
        #expect(entry[0]?["properties"]?["retry"]?["anyOf"]?[0]?["maximum"] == .int(PollingRetry.maximumAttempts))
    }

    @Test("the decoder accepts the described keys and lists them when it refuses one")
    func decoderKeys() {
        for (text, owner, keys) in [
            ("requests:\n  - { path: http://h/, retri: 3 }\n", "a request", PipelineKeys.request),
            ("requests:\n  - { requests: [], retri: 3 }\n", "a group of requests", PipelineKeys.group),
            ("retri: 3\nrequests: []\n", "a pipeline", PipelineKeys.topLevel),
        ] {
            do {
                _ = try PipelineFile.load(text: text, path: "p.yaml", environment: [:])
                Issue.record("\(text) loaded")
            } catch {
                let suggestion = keys.contains { $0.name == "retry" } ? "; did you mean 'retry'?" : ""
                let expected = "unknown key 'retri' in \(owner)\(suggestion) (keys: " + keys.map(\.name).joined(separator: ", ") + ")"
                #expect(error.diagnostics.map(\.message) == [expected])
            }
        }
    }

    @Test("the value types pipeline keys add check scalars as the decoder reads them")
    func valueTypes() {
        func problems(_ type: OptionDescriptor.ValueType, _ text: String) -> [String] {
            type.problems(in: YAMLNode(.scalar(text, quoted: false), mark: .init(line: 1, column: 1)), option: "k").map(\.message)
        }
        #expect(problems(.byteCount, "10MiB").isEmpty && problems(.byteCount, "none").isEmpty)
        #expect(problems(.byteCount, "ten") == ["k must be a size (1048576, 512KiB, 10MB) or none, not 'ten'"])
        #expect(problems(.integerIn(1...3), "3").isEmpty && problems(.integerIn(1...3), "4") == ["k must be an integer from 1 to 3, not '4'"])
        #expect(problems(.tag, "smoke:fast").isEmpty && !problems(.tag, "two words").isEmpty)
        #expect(problems(.oneOf([.integer, .duration]), "2s").isEmpty && problems(.oneOf([.integer, .duration]), "x") == ["k must be integer or duration (500ms, 30s, 2m)"])
    }
}
