import Foundation
import SluiceCore
import SluiceJSONPath
import SluiceStageRegistry

/// A pipeline file loaded and checked: its spec, its stages made through a `StageRegistry`,
/// its variables resolved, and the secrets to redact.
///
/// Loading finds every problem of the file before anything is sent: YAML syntax, unknown stages
/// and options, wrong types, missing required options, invalid stage configurations (a trust
/// policy that cannot work), `${NAME}` that nothing supplies, invalid JSONPath, parameters
/// with no serialization stage. All of them are reported at once, as ``PipelineFileError``.
///
/// ```swift
/// let file = try PipelineFile.load(path: path, variables: ["base": base])   // such as "pipelines/chain.yaml", "http://127.0.0.1:8080"
/// let pipeline = try file.makePipeline(transport: CurlTransport.shared)
/// ```
public struct PipelineFile: Sendable {
    /// The file's name as given.
    public let path: String
    /// The decoded spec.
    public let spec: PipelineSpec
    /// The stages made from `spec.stages`, in the order listed, as loading made them to check
    /// them; a run makes its own of those that hold its state (see ``makeStages()``).
    public let stages: [any Stage]
    /// The chain every run sends through, arranged once at load: the listed stages and those a
    /// run adds, top to bottom.
    let blueprint: [StageBlueprint]
    /// The variables from `variables:` and `--var`, and the environment.
    public let scope: VariableScope
    /// Every secret value: environment values the file reads, values under secret options.
    public let secrets: [String]
    /// Warnings about a configuration that works but weakens security (a trust policy that
    /// accepts invalid certificates).
    public let warnings: [String]

    /// What a pipeline file (included or not) with a second YAML document is told.
    static let secondDocument = "a pipeline file holds one YAML document; this is a second"

    /// The prefix of environment variables that set pipeline variables: `SLUICE_VAR_base=URL` sets
    /// `${base}`, above `variables:` and below `--vars-file` and `--var`.
    public static let environmentVariablePrefix = "SLUICE_VAR_"

    /// Reads and checks a pipeline file.
    /// - Parameters:
    ///   - path: the file.
    ///   - variables: `--var` values over `--vars-file` values, which take precedence over
    ///     `SLUICE_VAR_` environment variables and `variables:`: text, as a dotenv file's.
    ///   - typedVariables: values that keep their JSON type (a YAML vars file's), with the same
    ///     precedence; a name in both takes `variables`.
    ///   - environment: what `${env.NAME}` reads and `accept-language` defaults from.
    ///   - registry: the stages the file may name.
    /// - Throws: ``PipelineFileError`` with every problem found.
    public static func load(
        path: String,
        variables: [String: String] = [:],
        typedVariables: [String: JSONValue] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        registry: StageRegistry = .builtIn
    ) throws(PipelineFileError) -> PipelineFile {
        let text: String
        do {
            text = try InputFile.text(at: path, role: "the pipeline")
        } catch {
            throw PipelineFileError([PipelineDiagnostic(file: path, mark: YAMLNode.Mark(line: 1, column: 1), message: "cannot read the file: \(error.reason)")])
        }
        let url = URL(fileURLWithPath: path)
        return try load(
            text: text, path: path, directory: url.deletingLastPathComponent(),
            variables: variables, typedVariables: typedVariables, environment: environment, registry: registry
        )
    }

    /// Checks a pipeline given as text.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - path: the name diagnostics use; its stem is the pipeline's default name.
    ///   - directory: the folder relative paths (pins, files) are resolved against.
    ///   - variables: `--var` values, which win over the file's `variables:`: text.
    ///   - typedVariables: values that keep their JSON type, with the same precedence; a name in
    ///     both takes `variables`.
    ///   - environment: what `${env.NAME}` reads.
    ///   - registry: the stages the file may name.
    /// - Throws: ``PipelineFileError`` with every problem found.
    public static func load(
        text: String,
        path: String,
        directory: URL? = nil,
        variables: [String: String] = [:],
        typedVariables: [String: JSONValue] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        registry: StageRegistry = .builtIn
    ) throws(PipelineFileError) -> PipelineFile {
        guard let root = try YAMLReader().singleDocument(from: text, path: path, secondDocument: PipelineFile.secondDocument) else {
            throw PipelineFileError([PipelineDiagnostic(file: path, mark: YAMLNode.Mark(line: 1, column: 1), message: "the file is empty; a pipeline has stages: and requests:")])
        }
        return try load(
            root: root, path: path, directory: directory, variables: variables, typedVariables: typedVariables,
            environment: environment, registry: registry
        )
    }

    /// Checks a pipeline given as its document's node tree: what another format (a Hurl file)
    /// becomes, its nodes marked where that file wrote them, so that every diagnostic points there.
    /// - Parameters:
    ///   - root: the document's root mapping.
    ///   - path: the name diagnostics use; its stem is the pipeline's default name.
    ///   - directory: the folder relative paths (pins, files) are resolved against.
    ///   - variables: `--var` values, which win over the file's `variables:`: text.
    ///   - typedVariables: values that keep their JSON type, with the same precedence.
    ///   - environment: what `${env.NAME}` reads.
    ///   - registry: the stages the file may name.
    /// - Throws: ``PipelineFileError`` with every problem found.
    public static func load(
        root: YAMLNode,
        path: String,
        directory: URL? = nil,
        variables: [String: String] = [:],
        typedVariables: [String: JSONValue] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        registry: StageRegistry = .builtIn
    ) throws(PipelineFileError) -> PipelineFile {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let assembled = PipelineAssembly.assemble(root: root, source: PipelineSource(path: path, directory: directory), defaultName: stem)
        // With an included file missing, what is left would only add errors that follow from it.
        guard assembled.isComplete else { throw PipelineFileError(assembled.diagnostics) }
        var loader = Loader(environment: environment, registry: registry)
        let spec = loader.load(assembled.spec, overrides: variables, typedOverrides: typedVariables)
        let diagnostics = assembled.diagnostics + loader.diagnostics
        guard diagnostics.isEmpty else { throw PipelineFileError(diagnostics) }
        return PipelineFile(
            path: path, spec: spec, stages: loader.stages, blueprint: loader.blueprint, scope: loader.scope,
            secrets: loader.secrets, warnings: loader.warnings.lines
        )
    }

    /// The stages of one run, top to bottom: the file's, the `cookies` stage unless the file
    /// lists it (reading `cookie-file:` when given), an `hsts` stage held in memory unless the
    /// file lists one, and the default redirect stage unless the file lists `redirects`. Each call
    /// makes anew the stages that hold a run's state (`StageDescriptor.holdsRunState`), so two
    /// runs share no cookie jar (each with the cookie file's cookies) and no HSTS store; the
    /// others are those made when the file was loaded.
    /// - Throws: `.configuration` when a stage can no longer be made (a file it reads has gone
    ///   since the file was loaded).
    public func makeStages() throws(SluiceError) -> [any Stage] {
        var stages: [any Stage] = []
        for entry in blueprint { stages.append(try entry.stage()) }
        return stages
    }

    /// A pipeline of a run's stages (``makeStages()``) over a transport.
    /// - Parameters:
    ///   - transport: what moves the bytes.
    ///   - extra: more stages, each put in its place as the file's are.
    /// The pipeline's `max-response-size:` becomes its response-body limit.
    /// - Throws: `.configuration`, as `Pipeline/init(stages:transport:timeouts:redirects:maxResponseSize:maxInMemoryResponseSize:)` does.
    public func makePipeline(transport: any Transport, adding extra: [any Stage] = []) throws(SluiceError) -> Pipeline {
        try makePipeline(of: makeStages(), transport: transport, adding: extra)
    }

    /// A pipeline of stages a run made with ``makeStages()``, over a transport, with the file's
    /// `max-response-size:` as its response-body limit.
    /// - Throws: `.configuration`, as `Pipeline/init(stages:transport:timeouts:redirects:maxResponseSize:maxInMemoryResponseSize:)` does.
    public func makePipeline(of stages: [any Stage], transport: any Transport, adding extra: [any Stage] = []) throws(SluiceError) -> Pipeline {
        try Pipeline(stages: stages + extra, transport: transport, maxResponseSize: spec.maxResponseSize)
    }

    /// The chain a run sends through, top to bottom: each stage's name, level and rank, and where
    /// the file lists it or why the run adds it (the runner's own bookkeeping stages left out).
    public var chain: [ChainLink] {
        blueprint.map(\.link)
    }
}

/// The checks of one load, collecting diagnostics as it goes.
private struct Loader {
    let environment: [String: String]
    var registry: StageRegistry
    var diagnostics: [PipelineDiagnostic] = []
    var stages: [any Stage] = []
    /// The entry each of `stages` was made from.
    var stageEntries: [StageSpec] = []
    /// How a run makes each of `stages`, then the stages a run adds.
    var listed: [StageBlueprint] = []
    /// The chain, arranged and checked: `listed` and the added stages, top to bottom.
    var blueprint: [StageBlueprint] = []
    /// Whether two listed stages claim the same thing: the chain is then not checked further.
    var hasConflicts = false
    /// `stages` and the stages a run adds, in the order of `listed`: what a request's own
    /// stages are checked against.
    var chain: [any Stage] = []
    var scope = VariableScope()
    var secrets: [String] = []
    var warnings = ConfigurationWarnings()
    /// The `${env.NAME}` read whose values are too short to hide, with where each is read.
    private var shortEnvironmentReads: [(name: String, location: String)] = []

    init(environment: [String: String], registry: StageRegistry) {
        self.environment = environment
        self.registry = registry
        scope.environment = environment
    }

    /// The file of the entry being checked: where `fail` places a problem.
    private var current = PipelineSource(path: "", directory: nil)

    /// The warning for an environment value too short to hide (``VariableScope/shortestHiddenValue``).
    static func shownValue(_ what: String, bytes: Int) -> String {
        "\(what) is \(bytes) byte\(bytes == 1 ? "" : "s") long, too short to hide in the output without hiding every match of it (a status, a date), so it is shown; a secret of \(VariableScope.shortestHiddenValue) bytes or more is hidden"
    }

    mutating func fail(_ mark: YAMLNode.Mark, _ message: String) {
        diagnostics.append(PipelineDiagnostic(file: current.path, mark: mark, message: message))
    }

    mutating func load(_ spec: PipelineSpec, overrides: [String: String], typedOverrides: [String: JSONValue]) -> PipelineSpec {
        current = spec.files.first ?? current
        var capturedBy: [String: String] = [:]
        for request in spec.requests {
            for name in request.captures.map(\.name) + request.unreadCaptureNames + request.variables.compactMap(\.key.scalar) where capturedBy[name] == nil {
                capturedBy[name] = request.name
            }
        }
        resolveVariables(spec.variables, overrides: overrides, typedOverrides: typedOverrides, capturedBy: capturedBy)
        loadPlugins(spec.plugins, capturedBy: capturedBy)
        makeStages(spec.stages, capturedBy: capturedBy)
        addCookies(file: spec.cookieFile, capturedBy: capturedBy)
        addAuthentication(for: spec.requests)
        collectPasswords(of: spec.requests)
        for request in spec.requests {
            collectURLPassword(in: request.path)
            for field in request.headers + request.appendedHeaders where field.key.scalar?.asciiLowercased == "authorization" {
                collectCredentials(in: field.value)
            }
        }
        for stage in spec.stages where stage.name == "url-resolution" {
            if let base = stage.options.first(where: { $0.key.scalar == "base-url" })?.value { collectURLPassword(in: base) }
        }
        arrange(spec.stages)
        checkRequests(spec, capturedBy: capturedBy)
        var spec = spec
        makeRequestStages(&spec.requests, capturedBy: capturedBy)
        for index in spec.requests.indices {
            spec.requests[index].variableNames = spec.requests[index].referencedVariableNames
        }
        // Said once every secret is known: a short value under a secret option is hidden all the same.
        for (name, location) in shortEnvironmentReads {
            guard let value = environment[name], !secrets.contains(where: { $0.utf8.elementsEqual(value.utf8) }) else { continue }
            warnings.add(Loader.shownValue("${env.\(name)}", bytes: value.utf8.count), at: location)
        }
        return spec
    }

    /// Fills `scope` from, in order of precedence, `overrides` (`--var`, then `--vars-file`; text,
    /// or typed from a YAML vars file), `SLUICE_VAR_NAME` environment variables (text; secrets, as
    /// everything read from the environment) and `variables:` (typed as YAML reads them; they may
    /// read the environment and the variables above them).
    private mutating func resolveVariables(
        _ entries: [Sourced<YAMLNode.Pair>], overrides: [String: String], typedOverrides: [String: JSONValue], capturedBy: [String: String]
    ) {
        for (name, value) in typedOverrides where overrides[name] == nil { scope.assign(name, value) }
        for (name, value) in overrides { scope.values[name] = value }
        for (key, value) in environment where key.hasPrefix(PipelineFile.environmentVariablePrefix) {
            let name = String(key.dropFirst(PipelineFile.environmentVariablePrefix.count))
            guard TemplateString.problem(naming: name) == nil, scope.values[name] == nil else { continue }
            scope.values[name] = value
            guard VariableScope.isHideable(value) else {
                warnings.add(Loader.shownValue("\(key)'s value", bytes: value.utf8.count), at: "\(current.path):1:1")
                continue
            }
            scope.secretNames.insert(name)
            secrets.append(value)
        }
        for sourced in entries {
            let entry = sourced.value
            current = sourced.source
            guard let name = entry.key.scalar, scope.values[name] == nil else { continue }
            guard checkReferences(in: entry.value, known: Set(scope.values.keys), captures: capturedBy, context: "variables") else { continue }
            let value: JSONValue
            do {
                value = try scope.jsonValue(of: entry.value)
            } catch {
                fail(error.mark, error.message)
                continue
            }
            let templates = entry.value.references().references.isEmpty ? [] : Loader.texts(in: entry).compactMap { try? TemplateString(parsing: $0) }
            // A scalar keeps the text it renders to (`1.50` stays `1.50` inside a longer string,
            // a secret `007` stays `007`, never the number's `7`).
            let text = entry.value.scalar.flatMap { try? scope.render($0) }
            if templates.contains(where: scope.isSecret) {
                scope.secretNames.insert(name)
                secrets += text.map { [$0] } ?? Loader.scalarTexts(of: value)
            }
            for template in templates { secrets += scope.secrets(in: template) }
            scope.assign(name, value)
            if let text { scope.values[name] = text }
        }
    }

    /// Keeps cookies between the requests of a run: the listed `cookies` stage, or a new one
    /// (reading and writing `cookie-file:` when given) that each run adds, the file read now to
    /// check it.
    private mutating func addCookies(file sourced: Sourced<YAMLNode>?, capturedBy: [String: String]) {
        let file = sourced?.value
        let directory = sourced?.source.directory
        if let sourced { current = sourced.source }
        if let index = stages.firstIndex(where: { $0.placement == .cookies }) {
            let readsFile = stageEntries[index].options.contains { ["file", "read", "write"].contains($0.key.scalar ?? "") }
            if let file { fail(file.mark, "cookie-file: and the cookies stage both name the cookie file\(readsFile ? "" : " (the stage reads none)"); give it as the stage's file: option") }
            return
        }
        var url: URL?
        if let file {
            guard checkReferences(in: file, known: Set(scope.values.keys), captures: capturedBy, context: "stage options"),
                let text = file.scalar, let path = try? scope.render(text)
            else { return }
            url = URL(fileURLWithPath: StageOptions.resolve(path, against: directory))
        }
        do {
            let cookies = try CookieHandling(file: url)
            add(cookies, because: "a run keeps cookies between its requests") { [url] in try CookieHandling(file: url) }
        } catch let error as InputFile.Unreadable {
            fail(file?.mark ?? YAMLNode.Mark(line: 1, column: 1), error.description)
        } catch {
            fail(file?.mark ?? YAMLNode.Mark(line: 1, column: 1), "cannot read the cookie file \(url?.path ?? ""): \(error)")
        }
    }

    /// Adds an `authentication` stage without credentials of its own when a request gives its own
    /// `credential:` and the file lists none.
    private mutating func addAuthentication(for requests: [RequestSpec]) {
        guard let request = requests.first(where: { $0.credential != nil }), let credential = request.credential,
            !stages.contains(where: { $0.placement == .authentication })
        else { return }
        add(HTTPAuthentication(credentials: []), because: "a request gives its own credential: (\(request.source.location(credential.mark)))") {
            HTTPAuthentication(credentials: [])
        }
    }

    /// Counts the passwords of requests' own `credential:` and `proxy:` as secrets: as written,
    /// or the secrets their `${...}` read.
    private mutating func collectPasswords(of requests: [RequestSpec]) {
        for password in requests.flatMap({ [$0.credential, $0.proxy] }).compactMap({ $0?["password"]?.scalar }) {
            if password.containsCodePoints("${"), let template = try? TemplateString(parsing: password) {
                secrets += scope.secrets(in: template)
            } else {
                secrets.append(password)
            }
        }
    }

    /// Counts the credentials of an `Authorization` value a request writes (`Bearer TOKEN`,
    /// `Basic BASE64`, a Hurl file's `[BasicAuth]`) as secrets, as header-injection's
    /// `authorization` counts its own: what follows the scheme, and a Basic pair's password once
    /// decoded, so that a server that echoes them back shows `***`.
    private mutating func collectCredentials(in node: YAMLNode) {
        guard let value = node.scalar, !value.containsCodePoints("${"), let space = value.utf8.firstIndex(of: UInt8(ascii: " ")) else { return }
        let credentials = String(value[value.utf8.index(after: space)...]).trimmingCharacters(in: .whitespaces)
        guard !credentials.isEmpty else { return }
        secrets.append(credentials)
        if value[..<space].asciiLowercased == "basic", let decoded = Data(base64Encoded: credentials).flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":"), decoded.index(after: colon) < decoded.endIndex
        {
            secrets.append(String(decoded[decoded.index(after: colon)...]))
        }
    }

    /// Counts the password of a URL written with one (`http://user:password@host/`) as a
    /// secret, as written and decoded: libcurl sends it as Basic credentials, and output shows the
    /// URL, as `sluice send` shows it, with `***` in its place.
    private mutating func collectURLPassword(in node: YAMLNode) {
        guard let text = node.scalar, text.utf8.contains(UInt8(ascii: "@")),
            let authority = URIReference(parsing: text).authority, let at = authority.utf8.lastIndex(of: UInt8(ascii: "@"))
        else { return }
        let userInfo = authority[..<at]
        guard let colon = userInfo.utf8.firstIndex(of: UInt8(ascii: ":")) else { return }
        let password = String(userInfo[userInfo.utf8.index(after: colon)...])
        guard !password.isEmpty, !password.containsCodePoints("${") else { return }
        secrets.append(password)
        if let decoded = password.removingPercentEncoding, !decoded.utf8.elementsEqual(password.utf8) { secrets.append(decoded) }
    }

    /// Adds a stage every run has unless the file lists one, made now and by `make` for each run.
    private mutating func add(_ stage: any Stage, because reason: String, make: @escaping @Sendable () throws -> any Stage) {
        stages.append(stage)
        listed.append(StageBlueprint(link: ChainLink(name: stage.name, placement: stage.placement, origin: ChainLink.addedPrefix + reason), make: make))
    }

    /// Completes the chain with the HSTS, header-injection (the default `User-Agent` alone) and
    /// redirect stages a run adds when the file lists none, then checks it as a whole and keeps
    /// its arrangement, which every run and `--verbose` share.
    private mutating func arrange(_ entries: [StageSpec]) {
        guard !hasConflicts else { return }
        if !stages.contains(where: { $0.placement == .hsts }) {
            add(StrictTransportSecurity(), because: "a run honours Strict-Transport-Security (hsts: {file: ...} keeps it between runs)") { StrictTransportSecurity() }
        }
        if !stages.contains(where: { $0.placement == .headerInjection }) {
            // As curl sends curl/VERSION: a server sees what sent the request.
            add(HeaderInjection.userAgentOnly, because: "a run sends User-Agent: sluice/VERSION (OS; ARCH), as curl sends its own (header-injection: {user-agent: none} sends none)") {
                HeaderInjection.userAgentOnly
            }
        }
        if !stages.contains(where: { $0.placement == .redirects }) {
            add(Redirection(), because: "every pipeline follows redirects unless it lists redirects: {follow: false}") { Redirection() }
        }
        do {
            _ = try Pipeline(stages: stages, transport: InMemoryTransport { _ in Response(status: 200) }, redirects: nil)
        } catch {
            // A stage the run added may claim what a listed one does: both are named, the added
            // one by why the run added it, and the problem is put at the listed one.
            if let conflict = Pipeline.conflicts(in: stages).first {
                func place(_ index: Int) -> String { listed[index].link.place }
                let entry = [conflict.first, conflict.second].first { $0 < stageEntries.count }.map { stageEntries[$0] } ?? entries.first
                current = entry?.source ?? current
                fail(entry?.mark ?? YAMLNode.Mark(line: 1, column: 1), Pipeline.message(for: conflict, in: stages, locations: (place(conflict.first), place(conflict.second))))
                return
            }
            let entry = stageEntries.first { $0.name == error.stage } ?? entries.first
            current = entry?.source ?? current
            fail(entry?.mark ?? YAMLNode.Mark(line: 1, column: 1), error.message)
            return
        }
        blueprint = Pipeline.arrangement(of: stages).map { listed[$0] }
        chain = stages
        stages = Array(stages[..<stageEntries.count])
    }

    /// Loads the `plugins:` modules and registers their stages.
    private mutating func loadPlugins(_ entries: [Sourced<YAMLNode>], capturedBy: [String: String]) {
        for sourced in entries {
            let entry = sourced.value
            let directory = sourced.source.directory
            current = sourced.source
            guard checkReferences(in: entry, known: Set(scope.values.keys), captures: capturedBy, context: "plugins"),
                let text = entry.scalar, let path = try? scope.render(text)
            else { continue }
            do {
                for descriptor in try StageModuleLoader.load(path: StageOptions.resolve(path, against: directory)) {
                    do {
                        try registry.register(descriptor)
                    } catch {
                        fail(entry.mark, "plugin '\(path)': \(error.message)")
                    }
                }
            } catch {
                fail(entry.mark, "plugin '\(path)': \(error.message)")
            }
        }
    }

    private mutating func makeStages(_ entries: [StageSpec], capturedBy: [String: String]) {
        let (entries, overlaps) = HeaderInjectionEntries.arranged(entries)
        for overlap in overlaps {
            current = overlap.second.source
            fail(
                overlap.second.mark,
                "two 'header-injection' stages both set \(overlap.field) (at \(overlap.first.source.location(overlap.first.mark)) and at "
                    + "\(overlap.second.source.location(overlap.second.mark))): the one listed first would send its value and the other's "
                    + "would be dropped; set each field in one stage"
            )
        }
        for entry in entries {
            guard let (stage, blueprint) = makeStage(entry, capturedBy: capturedBy) else { continue }
            stages.append(stage)
            stageEntries.append(entry)
            listed.append(blueprint)
        }
        let conflicts = Pipeline.conflicts(in: stages)
        for conflict in conflicts {
            let first = stageEntries[conflict.first]
            let second = stageEntries[conflict.second]
            current = second.source
            let locations = (first.source.location(first.mark), second.source.location(second.mark))
            fail(second.mark, Pipeline.message(for: conflict, in: stages, locations: locations))
        }
        hasConflicts = !conflicts.isEmpty
    }

    /// One stage entry, made and checked: the stage, and how a run makes it; `nil` (the problem
    /// recorded) when it cannot be made.
    private mutating func makeStage(_ entry: StageSpec, capturedBy: [String: String]) -> (any Stage, StageBlueprint)? {
        current = entry.source
        guard let descriptor = registry[entry.name] else {
            var message = "unknown stage '\(entry.name)'"
            if let near = OptionDescriptor.nearest(to: entry.name, in: registry.descriptors.map(\.name)) { message += "; did you mean '\(near)'?" }
            fail(entry.mark, message + " (stages: " + registry.descriptors.map(\.name).joined(separator: ", ") + "; `sluice stages` lists them)")
            return nil
        }
        let mapping = YAMLNode(.mapping(entry.options), mark: entry.mark)
        guard checkReferences(in: mapping, known: Set(scope.values.keys), captures: capturedBy, context: "stage options") else {
            let templated = Set(mapping.references().references.map(\.mark))
            for problem in OptionDescriptor.problems(in: entry.options, at: entry.mark, options: descriptor.options, owner: "stage '\(entry.name)'")
            where !templated.contains(problem.mark) {
                fail(problem.mark, problem.message)
            }
            return nil
        }
        let rendered: YAMLNode
        do {
            rendered = try scope.render(mapping)
        } catch {
            fail(error.mark, error.message)
            return nil
        }
        let problems = OptionDescriptor.problems(in: rendered.pairs ?? [], at: entry.mark, options: descriptor.options, owner: "stage '\(entry.name)'")
        for problem in problems { fail(problem.mark, problem.message) }
        guard problems.isEmpty else { return nil }
        collectSecrets(in: entry.options, rendered: rendered.pairs ?? [], options: descriptor.options, secret: false)
        let options = StageOptions(owner: entry.name, pairs: rendered.pairs ?? [], mark: entry.mark, directory: entry.source.directory, environment: environment)
        do {
            let stage = try descriptor.make(options)
            if let reporting = stage as? any ConfigurationReporting {
                secrets += reporting.derivedSecrets
                for warning in reporting.configurationWarnings {
                    warnings.add(warning, at: entry.source.location(entry.mark))
                }
            }
            let factory = descriptor.make
            let make: @Sendable () throws -> any Stage
            if descriptor.holdsRunState { make = { try factory(options) } } else { make = { stage } }
            return (stage, StageBlueprint(link: ChainLink(name: stage.name, placement: stage.placement, origin: entry.source.location(entry.mark)), make: make))
        } catch let invalid as StageOptions.Invalid {
            fail(invalid.option.map { options.mark(of: $0) } ?? entry.mark, invalid.message)
        } catch let error as SluiceError {
            fail(entry.mark, "stage '\(entry.name)': \(error.message)")
        } catch {
            fail(entry.mark, "stage '\(entry.name)': \(error)")
        }
        return nil
    }

    /// Makes each request's own `stages:`, checked against the file's chain (the stages a run
    /// adds included): one that claims what a stage of the chain claims, or writes the
    /// `Authorization` header the request sends itself, is refused, naming both.
    private mutating func makeRequestStages(_ requests: inout [RequestSpec], capturedBy: [String: String]) {
        guard !hasConflicts else { return }
        for index in requests.indices where !requests[index].stages.isEmpty {
            let request = requests[index]
            // The request's own `variables:` whose values the file already knows (no capture)
            // hold for its own stages, as Hurl sets an entry's variable options before its
            // others: `variable: file=client.pem` then `cert: {{file}}`.
            let fileScope = scope
            var known = capturedBy
            for pair in request.variables {
                guard let name = pair.key.scalar, capturedBy[name] == request.name, let value = try? scope.jsonValue(of: pair.value) else { continue }
                scope.assign(name, value)
                known[name] = nil
            }
            var own: [(any Stage, StageBlueprint, StageSpec)] = []
            for entry in request.stages {
                guard let (stage, blueprint) = makeStage(entry, capturedBy: known) else { continue }
                own.append((stage, blueprint, entry))
            }
            scope = fileScope
            current = request.source
            let locations = listed.map(\.link.place) + own.map { $0.2.source.location($0.2.mark) }
            let combined = chain + own.map(\.0)
            let conflicts = Pipeline.conflicts(in: combined).filter { $0.second >= chain.count }
            for conflict in conflicts {
                let entry = own[conflict.second - chain.count].2
                fail(entry.mark, Pipeline.message(for: conflict, in: combined, locations: (locations[conflict.first], locations[conflict.second])))
            }
            if conflicts.isEmpty, let first = own.first {
                do {
                    _ = try Pipeline(stages: combined, transport: InMemoryTransport { _ in Response(status: 200) }, redirects: nil)
                } catch {
                    fail(own.first { $0.0.name == error.stage }?.2.mark ?? first.2.mark, error.message)
                }
            }
            // A request's `credential:` has its authentication stage in the chain, checked above.
            if request.headers.contains(where: { $0.key.scalar?.lowercased() == "authorization" }),
                let (stage, _, entry) = own.first(where: { $0.0.claims.contains("the Authorization header") })
            {
                fail(entry.mark, "stage '\(stage.name)' writes the Authorization header, and the request sends an Authorization header: keep one")
            }
            requests[index].ownStages = own.map(\.1)
        }
    }

    /// Adds the rendered values of secret options (and everything inside them) to `secrets`, and
    /// the values of the environment variables and secret variables any option refers to, at any
    /// depth (`headers: {X-Api-Key: "${env.KEY}"}` as much as `token: ${env.KEY}`).
    private mutating func collectSecrets(in written: [YAMLNode.Pair], rendered: [YAMLNode.Pair], options: [OptionDescriptor], secret: Bool) {
        for (original, value) in zip(written, rendered) {
            let descriptor = options.first { $0.name == original.key.scalar }
            let isSecret = secret || descriptor?.isSecret == true
            if case .object(let nested)? = descriptor?.type, let pairs = original.value.pairs, let renderedPairs = value.value.pairs {
                collectSecrets(in: pairs, rendered: renderedPairs, options: nested, secret: isSecret)
            } else if case .list(.object(let nested))? = descriptor?.type, let items = original.value.elements, let renderedItems = value.value.elements {
                for (item, renderedItem) in zip(items, renderedItems) {
                    collectSecrets(in: item.pairs ?? [], rendered: renderedItem.pairs ?? [], options: nested, secret: isSecret)
                }
            } else if isSecret {
                secrets += Loader.scalars(in: value.value)
            }
            for text in Loader.texts(in: original) {
                if let template = try? TemplateString(parsing: text) { secrets += scope.secrets(in: template) }
            }
        }
    }

    /// Every string, number and Boolean inside a value, as text: what a secret made of it reveals.
    private static func scalarTexts(of value: JSONValue) -> [String] {
        switch value {
        case .array(let elements): elements.flatMap(scalarTexts)
        case .object(let object): object.flatMap { scalarTexts(of: $0.value) }
        case .null: []
        default: [VariableScope.text(of: value)]
        }
    }

    private static func scalars(in node: YAMLNode) -> [String] {
        switch node.content {
        case .scalar(let text, _): [text]
        case .sequence(let elements): elements.flatMap(scalars)
        case .mapping(let pairs): pairs.flatMap { scalars(in: $0.value) }
        }
    }

    /// Every scalar of an option as written, its name and mapping keys included.
    private static func texts(in pair: YAMLNode.Pair) -> [String] {
        func texts(_ node: YAMLNode) -> [String] {
            switch node.content {
            case .scalar(let text, _): [text]
            case .sequence(let elements): elements.flatMap(texts)
            case .mapping(let pairs): pairs.flatMap { texts($0.key) + texts($0.value) }
            }
        }
        return texts(pair.key) + texts(pair.value)
    }

    /// Why `request`'s parameters cannot be written by `serialization`, which form-encodes them
    /// (into the query for the methods it sends them there with, into the body with `form` and
    /// `multipart`) and so takes names and values only; `nil` when they can, or when what they
    /// are is known at run time only (a template).
    private static func unpairedParameters(_ parameters: YAMLNode, of request: RequestSpec, by serialization: Serialization) -> String? {
        let destination = serialization.parameterDestination(for: request.method)
        guard destination.takesNamesAndValues else { return nil }
        let written =
            switch destination {
            case .query: "the parameters of a \(request.method) request go in its query, form-encoded"
            case .body(let format): "serialization's format \(format.rawValue) writes parameters as names and values"
            }
        switch parameters.content {
        case .mapping:
            return nil
        case .sequence:
            return written + ": they must be a mapping of names to values, not a list"
        case .scalar(let text, _):
            guard !text.containsCodePoints("${") else { return nil }
            return written + ": they must be a mapping of names to values, not '\(text)'"
        }
    }

    /// The checks across requests: references, parameters without serialization, paths without
    /// a base URL.
    private mutating func checkRequests(_ spec: PipelineSpec, capturedBy: [String: String]) {
        let placements = Set(spec.stages.compactMap { registry[$0.name]?.placement })
        let hasSerialization = placements.contains(.serialization)
        let hasResolution = placements.contains(.urlResolution)
        let serialization = stages.lazy.compactMap { $0 as? Serialization }.first
        // What a request may refer to grows as the requests go: kept in one set, to which each
        // request adds and from which its own row names are taken out again, so that checking a
        // file costs time in proportion to its size (a set rebuilt for each request cost the
        // square of the number of captures).
        var known = Set(scope.values.keys)
        let knownToConditions = known.union(capturedBy.keys)
        for request in spec.requests {
            current = request.source
            // A row whose data could not be read has every name the request reads.
            let rowNames = request.row?.isUnread == true
                ? request.referencedVariableNames.union(request.conditions.flatMap(\.variables))
                : Set(request.row?.values.map(\.name) ?? [])
            for condition in request.conditions {
                for name in condition.variables where !knownToConditions.contains(name) && !rowNames.contains(name) {
                    var message = "\(condition.effect.rawValue): \(name) is not a variable, a capture or a for-each column"
                    if let near = OptionDescriptor.nearest(to: name, in: Array(knownToConditions.union(rowNames))) { message += "; did you mean \(near)?" }
                    fail(condition.mark, message)
                }
            }
            if let parameters = request.parameters, !hasSerialization {
                fail(parameters.mark, "parameters need a serialization stage to write them; add '- serialization' to stages:")
            }
            if let parameters = request.parameters, let serialization, let problem = Loader.unpairedParameters(parameters, of: request, by: serialization) {
                fail(parameters.mark, problem)
            }
            if !request.parts.isEmpty && !hasSerialization {
                fail(request.mark, "parts need a serialization stage with format: multipart")
            }
            if request.parameters != nil && (request.body != nil || request.bodyFile != nil) {
                fail(request.mark, "give parameters or a raw body (body, body-file), not both")
            }
            if let path = request.path.scalar, !path.isEmpty, !path.containsCodePoints("${"), URLText.url(path, keepingDotSegments: request.sendsPathAsIs) == nil {
                // As the run reads it: a host or port no standard allows is refused, not sent.
                fail(request.path.mark, "'\(path)' is not a URL reference: its host or port is one no standard allows, so the run would refuse it")
            } else if !hasResolution, let path = request.path.scalar, !path.containsCodePoints("${"),
                !["http", "https"].contains(URL(string: path)?.scheme?.lowercased())
            {
                fail(request.path.mark, "'\(path)' is not an absolute http(s) URL, and there is no url-resolution stage to resolve it against")
            }
            // A request's own `variables:` are set before it is rendered.
            for pair in request.variables { known.insert(pair.key.scalar ?? "") }
            let rowOnly = rowNames.subtracting(known)
            known.formUnion(rowOnly)
            checkTemplates(in: request.sentNodes, known: known, captures: capturedBy, request: request)
            // Its own captures, for its checks and every request after it.
            for capture in request.captures { known.insert(capture.name) }
            known.formUnion(request.unreadCaptureNames)
            checkTemplates(in: request.checkNodes, known: known, captures: capturedBy, request: request)
            for variable in request.queriedVariables where !known.contains(variable.name) {
                var message = "variable: \(variable.name) is not a variable, a capture or a for-each column"
                if let near = OptionDescriptor.nearest(to: variable.name, in: Array(known)) { message += "; did you mean \(near)?" }
                fail(variable.mark, message)
            }
            // A row's names go with its request, unless the request captured one of them.
            known.subtract(rowOnly.subtracting(request.captures.map(\.name) + request.unreadCaptureNames))
        }
    }

    /// Checks the references of a request's templates against `known`, and collects the secrets
    /// they read.
    private mutating func checkTemplates(in nodes: [YAMLNode], known: Set<String>, captures: [String: String], request: RequestSpec) {
        for node in nodes {
            _ = checkReferences(in: node, known: known, captures: captures, context: "request '\(request.name)'", requestName: request.name)
            // Every scalar, however deep: a secret in parameters: or a header's list of values
            // is as secret as one in a path.
            for template in node.templates { secrets += scope.secrets(in: template) }
        }
    }

    /// Reports malformed templates and references nothing supplies; `false` when there was one.
    private mutating func checkReferences(in node: YAMLNode, known: Set<String>, captures: [String: String], context: String, requestName: String? = nil) -> Bool {
        let (references, problems) = node.references()
        for problem in problems { fail(problem.mark, problem.message) }
        var ok = problems.isEmpty
        for reference in references {
            if reference.isEnvironment {
                if let value = environment[reference.name] {
                    if !VariableScope.isHideable(value) { shortEnvironmentReads.append((reference.name, current.location(reference.mark))) }
                    continue
                }
                fail(reference.mark, "undefined variable ${env.\(reference.name)}: the environment variable \(reference.name) is not set")
            } else {
                guard !known.contains(reference.name) else { continue }
                var message = "undefined variable \(current.spelling(ofVariable: reference.name))"
                if let request = captures[reference.name], request == requestName {
                    message += ": this request captures it from its response, which comes after it is sent"
                } else if let request = captures[reference.name] {
                    message += ["stage options", "variables", "plugins"].contains(context)
                        ? ": it is captured by request '\(request)', but \(context) are read before any request runs"
                        : ": it is captured by request '\(request)', which does not run before this point"
                } else if let near = OptionDescriptor.nearest(to: reference.name, in: Array(known) + Array(captures.keys)) {
                    message += "; did you mean \(current.spelling(ofVariable: near))?"
                } else if current.isHurl {
                    message += " (pass --variable \(reference.name)=VALUE, or set it in the entry's [Options]: variable: \(reference.name)=VALUE)"
                } else {
                    message += " (define it under variables: or pass --var \(reference.name)=VALUE)"
                }
                fail(reference.mark, message)
            }
            ok = false
        }
        return ok
    }
}
