import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles

@Suite("--vars-file: YAML and dotenv")
struct VariablesFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/dotenv")

    @Test("a dotenv file reads as python-dotenv 1.2.4 reads it (no interpolation): quotes, escapes, export, comments, CRLF")
    func dotenvAgainstPythonDotenv() throws {
        let path = VariablesFileTests.fixtures.appendingPathComponent("team.env").path
        let loaded = try VariablesFile.load(path: path)
        // Quoted values are strings, bare ones text typed where used; python-dotenv reads all as text.
        let values = loaded.text.merging(loaded.typed.compactMapValues { if case .string(let text) = $0 { text } else { nil } }) { first, _ in first }
        #expect(loaded.typed.values.allSatisfy { if case .string = $0 { true } else { false } })
        let root = VariablesFileTests.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = Process()
        python.executableURL = root.appendingPathComponent(".venv/bin/python")
        python.arguments = ["-c", "import json, sys, dotenv; print(json.dumps(dotenv.dotenv_values(sys.argv[1], interpolate=False)))", path]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        python.waitUntilExit()
        let expected = try #require(try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile()) as? [String: String])
        #expect(values == expected)
        #expect(values.count == 13)
    }

    @Test("a YAML file is a mapping of names to values that keep YAML's types; anything else is an error at its line")
    func yaml() throws {
        #expect(
            try VariablesFile.yaml("base: http://h/\nport: 8080\nflag: true\nzip: \"007\"\nratio: 1.5\nnone: ~\nids: [1, 2]\nuser: {name: zoe}\n", path: "v.yaml")
                == ["base": "http://h/", "port": 8080, "flag": true, "zip": "007", "ratio": 1.5, "none": .null, "ids": [1, 2], "user": ["name": "zoe"]]
        )
        #expect(try VariablesFile.yaml("", path: "v.yaml") == [:])
        let key = #expect(throws: PipelineFileError.self) { try VariablesFile.yaml("a: {[b]: c}\n", path: "v.yaml") }
        #expect(key?.description == "v.yaml:1:5: error: a mapping key must be a scalar to become JSON")
        let loaded = try VariablesFile.load(path: VariablesFileTests.fixtures.deletingLastPathComponent().appendingPathComponent("../../pipelines/_fixtures/typed-vars.yaml").standardizedFileURL.path)
        #expect(loaded.text.isEmpty && loaded.typed == ["order-id": "0042", "quantity": 2, "gift": false, "tags": ["new", "sale"]])
        let list = #expect(throws: PipelineFileError.self) { try VariablesFile.yaml("- a\n", path: "v.yaml") }
        #expect(list?.description == "v.yaml:1:1: error: a variables file is a mapping of names to values")
        // A name ${now} would never read: the function wins.
        let reserved = #expect(throws: PipelineFileError.self) { try VariablesFile.dotenv("now=yesterday\n", path: ".env") }
        #expect(reserved?.description == ".env:1:1: error: 'now' is the name of a template function (${now}); choose another name")
        let name = #expect(throws: PipelineFileError.self) { try VariablesFile.yaml("env.HOME: x\n", path: "v.yaml") }
        #expect(name?.description.hasPrefix("v.yaml:1:1: error: 'env.HOME' is not a variable name") == true)
    }

    @Test("a .json file is an object read as strictly as a for-each JSON file: its types kept, a trailing comma refused at its line and column")
    func json() throws {
        #expect(try VariablesFile.json(#"{"port": 8080, "zip": "007", "ids": [1, 2], "none": null, "flag": true}"#, path: "v.json") == ["port": 8080, "zip": "007", "ids": [1, 2], "none": .null, "flag": true])
        let comma = #expect(throws: PipelineFileError.self) { try VariablesFile.json("{\"a\": 1,\n}", path: "v.json") }
        #expect(comma?.description == "v.json:2:1: error: the variables file is not JSON: expected a string as object key")
        let array = #expect(throws: PipelineFileError.self) { try VariablesFile.json("[1]", path: "v.json") }
        #expect(array?.description == "v.json:1:1: error: a variables file is an object of names to values, not array")
        let name = #expect(throws: PipelineFileError.self) { try VariablesFile.json(#"{"env.HOME": 1}"#, path: "v.json") }
        #expect(name?.description.hasPrefix("v.json:1:1: error: env.HOME: 'env.HOME' is not a variable name") == true, "\(String(describing: name))")
        // YAML's looser reading (a trailing comma, a comment) is for .yaml files.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["v.json", "v.yaml"] { try Data("{\"a\": 1,}".utf8).write(to: directory.appendingPathComponent(name)) }
        #expect(throws: PipelineFileError.self) { try VariablesFile.load(path: directory.appendingPathComponent("v.json").path) }
        #expect(try VariablesFile.load(path: directory.appendingPathComponent("v.yaml").path).typed == ["a": 1])
    }

    @Test("dotenv errors name their line; a value is never expanded from the environment")
    func dotenvErrors() throws {
        let error = #expect(throws: PipelineFileError.self) {
            try VariablesFile.dotenv("OK=1\nno equals here\nBAD NAME=1\nQ='open\n", path: ".env")
        }
        #expect(error?.diagnostics.map(\.mark.line) == [2, 3, 4])
        #expect(try VariablesFile.dotenv("HOME_COPY=$HOME\n", path: ".env").text == ["HOME_COPY": "$HOME"])
    }

    @Test("a quoted dotenv value is a string, a bare one text typed where used (Hurl's my-id=\"123\" against age=30); a later line wins")
    func quotedIsString() throws {
        let values = try VariablesFile.dotenv("age=30\nmy-id=\"123\"\nzip='007'\nn=\"1\"\nn=2\n", path: ".env")
        #expect(values.text == ["age": "30", "n": "2"])
        #expect(values.typed == ["my-id": "123", "zip": "007"])
    }
}
