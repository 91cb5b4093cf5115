import ArgumentParser
import Foundation
import Sluice
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceHurlFiles
import SluiceRunner
import SluiceLoad

/// The arguments every pipeline command shares: the files (or folders of them), `--var` and
/// `--vars-file`.
struct PipelineArguments: ParsableArguments {
    @Argument(
        help: "Pipeline files (YAML), or folders: every .yaml and .yml file under a folder, in name order, except those (and folders) whose name starts with _ or . (files made to be included).",
        completion: .file(extensions: ["yaml", "yml"])
    )
    var files: [String]

    @Option(name: [.customLong("var"), .customLong("variable")], help: ArgumentHelp("A variable, over a vars file, SLUICE_VAR_ and variables:; a capture or a for-each row still wins over it (repeatable; --variable, Hurl's spelling, too).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(name: .customLong("secret"), help: ArgumentHelp("A variable that is a secret, as Hurl's --secret: its value is *** in every output, as a SLUICE_VAR_NAME environment variable's is (repeatable).", valueName: "NAME=VALUE"))
    var secrets: [String] = []

    @Option(
        name: [.customLong("vars-file"), .customLong("variables-file")],
        help: ArgumentHelp(
            "Variables from a file: YAML (.yaml, .yml, .json) or dotenv (NAME=VALUE lines). Below --var, above SLUICE_VAR_NAME environment variables and variables: (repeatable; a later file wins; --variables-file, Hurl's spelling, too).",
            valueName: "FILE"
        )
    )
    var variableFiles: [String] = []

    @OptionGroup(title: "Hurl files (every entry of each .hurl file, as Hurl's command line)") var hurl: HurlCommandLineOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one pipeline file") }
        _ = try commandLineVariables()
        _ = try secretEnvironment()
        _ = try hurl.defaults()
        if let option = hurl.given.first, let file = files.first(where: { !$0.hasSuffix(".hurl") }) {
            throw ValidationError("\(file): \(option) is Hurl's, for .hurl files; a pipeline file says it itself (the redirects stage, a request's delay:, retry:, remove-headers:, cookie-jar:, output:, --only to choose requests)")
        }
    }

    /// `--var` values by name.
    func commandLineVariables() throws -> [String: String] {
        try PipelineArguments.pairs(variables, option: "--var")
    }

    /// The environment the files are loaded with: the process's, each `--secret NAME=VALUE` as
    /// `SLUICE_VAR_NAME`, which the loader reads as a secret variable.
    /// - Throws: `ValidationError` for a malformed pair, or a name `--var` gives too.
    func secretEnvironment() throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let given = try PipelineArguments.pairs(secrets, option: "--secret")
        guard !given.isEmpty else { return environment }
        // A variables file that cannot be read is reported where the files are loaded.
        let plain = (try? variableValues()) ?? (text: [:], typed: [:])
        for (name, value) in given {
            // Below --var and --vars-file, a secret of the same name would be read in silence.
            if plain.text[name] != nil || plain.typed[name] != nil {
                throw ValidationError("--secret \(name)=... and --var or --vars-file both give \(name): give it once")
            }
            environment[PipelineFile.environmentVariablePrefix + name] = value
        }
        return environment
    }

    /// `NAME=VALUE` arguments of `option` by name.
    private static func pairs(_ arguments: [String], option: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for argument in arguments {
            // A secret's value is never repeated in a message.
            let shown = option == "--secret" ? String(argument.prefix { $0 != "=" }) + "=***" : argument
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("\(option) '\(shown)' is not of the form NAME=VALUE")
            }
            let name = String(argument[..<equals])
            // A name no ${...} can read is a mistake, as a variables file's is.
            if let problem = TemplateString.problem(naming: name) {
                throw ValidationError("\(option) '\(shown)': \(problem)")
            }
            values[name] = String(argument[argument.index(after: equals)...])
        }
        return values
    }

    /// The values that override `variables:`: `--vars-file` values, each file over the one before,
    /// then `--var` values over them; text (`--var`, a dotenv file's) and typed (a YAML file's),
    /// no name in both.
    func variableValues() throws -> (text: [String: String], typed: [String: JSONValue]) {
        var text: [String: String] = [:]
        var typed: [String: JSONValue] = [:]
        for path in variableFiles {
            let file = try VariablesFile.load(path: path)
            for (name, value) in file.text {
                text[name] = value
                typed.removeValue(forKey: name)
            }
            for (name, value) in file.typed {
                typed[name] = value
                text[name] = nil
            }
        }
        for (name, value) in try commandLineVariables() {
            text[name] = value
            typed.removeValue(forKey: name)
        }
        return (text, typed)
    }

    /// The pipeline files the arguments name, folders expanded.
    func paths() throws -> [String] {
        var paths: [String] = []
        for argument in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
                paths.append(argument)
                continue
            }
            let found = PipelineArguments.pipelines(in: argument)
            if found.isEmpty { throw ValidationError("\(argument): no pipeline files (.yaml, .yml) in this folder") }
            paths += found
        }
        return paths
    }

    /// The `.yaml` and `.yml` files under a folder, sorted by path, leaving out files and folders
    /// whose name starts with `_` or `.`.
    static func pipelines(in folder: String) -> [String] {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [] }
        var found: [String] = []
        for name in names.sorted() where !name.hasPrefix("_") && !name.hasPrefix(".") {
            let path = base + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += pipelines(in: path)
            } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                found.append(path)
            }
        }
        return found
    }

    /// Every file loaded, or every problem of every file reported at once.
    /// - Parameters:
    ///   - user: `-u NAME:PASSWORD`, which Hurl's `--digest` makes each entry's credential.
    ///   - headers: `-H NAME: VALUE` lines, which each entry of a Hurl file sends where Hurl sends
    ///     them (after its own headers, before its `header` options).
    func load(user: String? = nil, headers: [String] = []) throws -> [PipelineFile] {
        let values = try variableValues()
        let environment = try secretEnvironment()
        let registry = try StageCatalog.registry()
        var hurlDefaults = try hurl.defaults(user: user) ?? HurlDefaults()
        hurlDefaults.headerLines = try HurlCommandLineOptions.headerLines(headers)
        var files: [PipelineFile] = []
        var diagnostics: [PipelineDiagnostic] = []
        for path in try paths() {
            do {
                if path.hasSuffix(".hurl") {
                    files.append(
                        try HurlPipelineFile.load(path: path, defaults: hurlDefaults, variables: values.text, typedVariables: values.typed, environment: environment, registry: registry)
                    )
                } else {
                    files.append(try PipelineFile.load(path: path, variables: values.text, typedVariables: values.typed, environment: environment, registry: registry))
                }
            } catch {
                diagnostics += error.diagnostics
            }
        }
        if !diagnostics.isEmpty { throw PipelineFileError(diagnostics) }
        for warning in files.flatMap(\.warnings) {
            Terminal.writeError(warning + "\n")
        }
        // A --var nothing reads is most likely misspelled: said, as a name no file defines is.
        for warning in PipelineFile.unreadVariableWarnings(try commandLineVariables().keys.sorted(), files: files) {
            Terminal.writeError("sluice: \(warning)\n")
        }
        return files
    }
}
