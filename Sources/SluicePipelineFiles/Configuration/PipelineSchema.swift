import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// The JSON Schema (draft-07) of the pipeline format, generated from a `StageRegistry` so that
/// editors (yaml-language-server) complete and check stage names and options, plugins included.
///
/// `sluice stages --schema` prints it; `pipelines/schema.json` is its output for the built-in
/// stages, kept in sync by a test.
public enum PipelineSchema {
    /// The schema as a JSON value.
    public static func schema(for registry: StageRegistry) -> JSONValue {
        let stageEntries: [JSONValue] = [["enum": .array(registry.descriptors.map { .string($0.name) })]]
            + registry.descriptors.map(stageSchema)
        let request = object(PipelineKeys.request, description: "A request.")
        let group = object(PipelineKeys.group, description: "A group: requests written here, or the requests of an included file, with what applies to each of them.")
        guard case .object(var top) = object(PipelineKeys.topLevel, description: "A chain of stages and the requests sent through it (PIPELINE-FORMAT.md, version 1).") else { return .null }
        top["$schema"] = "http://json-schema.org/draft-07/schema#"
        top["title"] = "Sluice pipeline"
        top["definitions"] = [
            "entry": ["anyOf": [request, group]],
            "stage": ["anyOf": .array(stageEntries)],
        ]
        return .object(top)
    }

    private static func stageSchema(_ descriptor: StageDescriptor) -> JSONValue {
        let options = object(descriptor.options, description: descriptor.summary)
        return [
            "type": "object",
            "description": .string(descriptor.summary),
            "properties": .object(JSONObject([(descriptor.name, ["anyOf": [["type": "null"], options] as JSONValue] as JSONValue)])),
            "required": [.string(descriptor.name)],
            "additionalProperties": false,
        ]
    }

    private static func object(_ options: [OptionDescriptor], description: String) -> JSONValue {
        var result: JSONObject = [
            "type": "object",
            "description": .string(description),
            "properties": .object(JSONObject(options.map { ($0.name, schema(of: $0)) })),
            "additionalProperties": false,
        ]
        let required = options.filter(\.isRequired).map { JSONValue.string($0.name) }
        if !required.isEmpty { result["required"] = .array(required) }
        return .object(result)
    }

    private static func schema(of option: OptionDescriptor) -> JSONValue {
        var description = option.summary
        if let value = option.defaultValue { description += " Default: \(value)." }
        if option.isSecret { description += " Redacted in all output." }
        guard case .object(var schema) = type(option.type, description: description) else { return .null }
        schema["description"] = .string(description)
        return .object(schema)
    }

    private static func type(_ type: OptionDescriptor.ValueType, description: String) -> JSONValue {
        switch type {
        case .string: return scalar
        case .scalar: return ["type": ["string", "number", "boolean", "null"]]
        case .boolean: return ["type": "boolean"]
        case .integer: return ["type": "integer"]
        case .integerIn(let range):
            var schema: JSONObject = ["type": "integer", "minimum": .int(range.lowerBound)]
            if range.upperBound < Int.max { schema["maximum"] = .int(range.upperBound) }
            return .object(schema)
        case .byteCount: return byteCount
        case .condition: return ["type": ["string", "boolean"]]
        case .tag: return ["type": "string", "pattern": "^[A-Za-z0-9_.:/-]+$"]
        case .duration: return duration
        case .choice(let words): return ["enum": .array(words.map { .string($0) })]
        case .statusCode: return statusCode
        case .list(let element):
            let item = self.type(element, description: description)
            return ["anyOf": [item, ["type": "array", "items": item]]]
        case .map(let value): return ["type": "object", "additionalProperties": self.type(value, description: description)]
        case .object(let options): return object(options, description: description)
        case .oneOf(let types): return ["anyOf": .array(types.map { self.type($0, description: description) })]
        case .reference(let name): return ["$ref": .string("#/definitions/\(name)")]
        case .any: return [:]
        }
    }

    private static let scalar: JSONValue = ["type": ["string", "number", "boolean"]]
    /// A duration's text, or a bare 0 (YAML reads `timeout: 0` as a number), which is none.
    private static let duration: JSONValue = [
        "anyOf": [["type": "string", "pattern": "^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|\u{00B5}s|\u{03BC}s|ms|s|m|h))+)$"], ["const": 0]],
    ]
    private static let statusCode: JSONValue = [
        "anyOf": [["type": "integer"], ["type": "string", "pattern": "^([1-5]xx|[0-9]{3}(-[0-9]{3})?)$"]],
    ]
    private static let byteCount: JSONValue = [
        "anyOf": [
            ["type": "integer", "minimum": 0], ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?(B|KB|MB|GB|KiB|MiB|GiB)?$"],
            ["const": "none"],
        ],
    ]
}
