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
        return [
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": ["entry": ["anyOf": [request, group]]],
            "title": "Sluice pipeline",
            "description": "A chain of stages and the requests sent through it (PIPELINE-FORMAT.md, version 1).",
            "type": "object",
            "additionalProperties": false,
            "properties": [
                "name": ["type": "string", "description": "The pipeline's name; the file's stem by default."],
                "plugins": [
                    "type": "array", "items": ["type": "string"],
                    "description": "Stage modules built as shared libraries (.so) to load, relative to the file; `sluice stages --schema --plugin PATH` writes a schema with their stages.",
                ],
                "variables": [
                    "type": "object", "description": "Defaults for ${NAME}; --var NAME=VALUE, --vars-file and SLUICE_VAR_NAME override them. A name defined in two included files is an error.",
                    "additionalProperties": scalar,
                ],
                "stages": [
                    "type": "array", "description": "The stages, top to bottom: '- NAME' or '- NAME: {options}'.",
                    "items": ["anyOf": .array(stageEntries)],
                ],
                "include": [
                    "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"]]],
                    "description": "Pipeline files (relative to this one) whose stages, variables and requests come first; each file's declarations are taken once, however often it is included.",
                ],
                "tags": tags("Tags of every request of the file, for --tag and --skip-tag."),
                "requests": ["type": "array", "items": ["$ref": "#/definitions/entry"]],
                "max-response-size": byteCount("The most bytes of response body a request takes (after content decoding) unless it sets its own; none for no limit. By default a body held in memory is limited to 64 MiB, and a body streamed to a file (output) has no limit."),
                "cookie-file": ["type": "string", "description": "A cookie file in curl's format (-b, -c): read before the first request if it exists, written after the run. Relative to the pipeline file."],
            ],
        ]
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
        case .boolean: return ["type": "boolean"]
        case .integer: return ["type": "integer"]
        case .duration: return duration
        case .choice(let words): return ["enum": .array(words.map { .string($0) })]
        case .statusCode: return statusCode
        case .list(let element):
            let item = self.type(element, description: description)
            return ["anyOf": [item, ["type": "array", "items": item]]]
        case .map(let value): return ["type": "object", "additionalProperties": self.type(value, description: description)]
        case .object(let options): return object(options, description: description)
        case .any: return [:]
        }
    }

    private static let scalar: JSONValue = ["type": ["string", "number", "boolean"]]
    private static let duration: JSONValue = ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?(ms|us|s|m|h)$"]
    private static let statusCode: JSONValue = [
        "anyOf": [["type": "integer"], ["type": "string", "pattern": "^([1-5]xx|[0-9]{3}(-[0-9]{3})?)$"]],
    ]
    private static func byteCount(_ description: String) -> JSONValue {
        [
            "anyOf": [
                ["type": "integer", "minimum": 0], ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?(B|KB|MB|GB|KiB|MiB|GiB)?$"],
                ["const": "none"],
            ],
            "description": .string(description),
        ]
    }
    private static let scalarMap: JSONValue = ["type": "object", "additionalProperties": scalar]

    private static func tags(_ description: String) -> JSONValue {
        [
            "anyOf": [tag, ["type": "array", "items": tag]],
            "description": .string(description),
        ]
    }
    private static let tag: JSONValue = ["type": "string", "pattern": "^[A-Za-z0-9_.:/-]+$"]
    private static let condition: JSONValue = ["type": ["string", "boolean"], "description": "A condition: NAME == 'text', NAME > 3, exists NAME, not, and, or, parentheses."]

    /// The keys a request and a group of requests share.
    private static let shared: [(String, JSONValue)] = [
        (
            "for-each",
            [
                "description": "Run once per row: a list (a value is ${item}, a mapping's keys are variables), {csv: PATH} (the header row names the variables) or {json: PATH} (an array).",
                "anyOf": [
                    ["type": "array", "items": ["anyOf": [scalar, ["type": "object", "additionalProperties": scalar]]]],
                    ["type": "object", "required": ["csv"], "additionalProperties": false, "properties": ["csv": ["type": "string"]]],
                    ["type": "object", "required": ["json"], "additionalProperties": false, "properties": ["json": ["type": "string"]]],
                ],
            ]
        ),
        ("when", condition),
        ("skip", condition),
        ("tags", tags("Tags for --tag and --skip-tag.")),
        ("always", ["type": "boolean", "description": "Run even after --fail-fast has stopped the run (a teardown)."]),
    ]

    private static let group: JSONValue = [
        "type": "object",
        "description": "A group: requests written here, or the requests of an included file, with what applies to each of them.",
        "additionalProperties": false,
        "properties": .object(JSONObject([
            ("include", ["type": "string", "description": "A pipeline file whose requests run here; its captures are visible after it."] as JSONValue),
            ("requests", ["type": "array", "items": ["$ref": "#/definitions/entry"]] as JSONValue),
        ] + shared)),
        "oneOf": [["required": ["include"]], ["required": ["requests"]]],
    ]

    private static let request: JSONValue = [
        "type": "object",
        "required": ["path"],
        "additionalProperties": false,
        "properties": .object(JSONObject(requestProperties + shared + [
            (
                "retry",
                [
                    "description": "Send again, interval apart, until every expectation holds, at most attempts times (the first included).",
                    "anyOf": [
                        ["type": "integer", "minimum": 1, "maximum": .int(PollingRetry.maximumAttempts)],
                        [
                            "type": "object", "required": ["attempts"], "additionalProperties": false,
                            "properties": ["attempts": ["type": "integer", "minimum": 1, "maximum": .int(PollingRetry.maximumAttempts)], "interval": duration],
                        ],
                    ],
                ] as JSONValue
            ),
            ("delay", duration),
        ])),
    ]

    private static let requestProperties: [(String, JSONValue)] = requestPropertyObject.map { ($0.key, $0.value) }

    private static let requestPropertyObject: JSONObject = [
        "name": ["type": "string", "description": "Unique in the file; METHOD path by default."],
        "method": ["type": "string", "description": "GET by default."],
        "path": ["type": "string", "description": "A URL reference, resolved against url-resolution's base-url (RFC 3986)."],
        "path-parameters": scalarMap,
        "parameters": ["description": "Any value, written by the serialization stage into the query or the body."],
        "headers": scalarMap,
        "body": ["type": "string", "description": "A raw body, instead of parameters."],
        "body-file": ["type": "string", "description": "A file sent as the raw body, relative to the pipeline file."],
        "parts": [
            "type": "array",
            "items": [
                "type": "object", "required": ["name"], "additionalProperties": false,
                "properties": [
                    "name": scalar, "value": scalar, "file": ["type": "string"], "filename": ["type": "string"],
                    "content-type": ["type": "string"],
                ],
            ],
        ],
        "timeout": duration,
        "max-response-size": byteCount("The most bytes of response body to take, after content decoding; past it the request fails with 'response too large'. none for no limit."),
        "connection": object(
            ConnectionOptions.descriptors,
            description: "The request's own connection overrides, in place of the connection stage's: a Unix socket, HOST:PORT:ADDRESS entries (resolve), HOST:PORT:TO-HOST:TO-PORT entries (connect-to)."
        ),
        "output": ["type": "string", "description": "A file the response body is streamed to instead of memory, relative to the pipeline file, written through as curl's -o writes: a device or FIFO as the bytes arrive, an existing file in place (its hard links, mode and owner kept), a symbolic link followed. A regular file changes only when the request succeeds."],
        "events": [
            "type": "object",
            "description": "Read a text/event-stream response as server-sent events until count have arrived or within has passed (reconnecting with Last-Event-ID between); expect and capture then see the events as a JSON array of {type, data, id, json?}.",
            "additionalProperties": false,
            "minProperties": 1,
            "properties": [
                "count": ["type": "integer", "minimum": 1, "description": "How many events to read."],
                "within": duration,
            ],
        ],
        "expect": [
            "type": "object",
            "additionalProperties": false,
            "properties": [
                "status": ["anyOf": [statusCode, ["type": "array", "items": statusCode]]],
                "headers": ["type": "object", "description": "Values; /regex/ is matched as a regular expression.", "additionalProperties": scalar],
                "body": ["type": "object", "description": "{JSONPATH: value} or {JSONPATH: {OP: value}}."],
                "certificate": [
                    "type": "object",
                    "description": "{FIELD: value} or {FIELD: {OP: value}} on the certificate the server presented.",
                    "propertyNames": ["enum": .array(CertificateField.allCases.map { .string($0.rawValue) })],
                ],
                "cookies": ["type": "object", "description": "{NAME: value} or {NAME: {OP: value}} on the cookies the run's jar holds for the response's URL; {exists: false} for none."],
                "max-duration": duration,
            ],
        ],
        "capture": [
            "type": "object",
            "additionalProperties": [
                "anyOf": [
                    ["type": "string", "description": "A JSONPath into the body."],
                    ["type": "object", "required": ["header"], "additionalProperties": false, "properties": ["header": ["type": "string"]]],
                    ["type": "object", "required": ["regex"], "additionalProperties": false, "properties": ["regex": ["type": "string"]]],
                    [
                        "type": "object", "required": ["certificate"], "additionalProperties": false,
                        "properties": ["certificate": ["enum": .array(CertificateField.allCases.map { .string($0.rawValue) })]],
                    ],
                    ["type": "object", "required": ["cookie"], "additionalProperties": false, "properties": ["cookie": ["type": "string"]]],
                ],
            ],
        ],
    ]
}
