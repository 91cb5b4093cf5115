import Foundation
import SluiceCore
import SluiceStageRegistry

/// Puts a pipeline together from its file and the files it includes: declarations (plugins,
/// variables, stages, settings) once per file, requests where they are included, `for-each` rows
/// read and expanded, `when`/`skip`/`tags`/`always` handed down from groups and includes.
///
/// The errors of composition are found here, each at its `FILE:LINE:COLUMN` and naming the other
/// place involved: a file that includes itself through others, a file that is missing, and a
/// variable, a request name or a setting defined twice.
struct PipelineAssembly {
    /// What groups and includes hand down to the requests inside them.
    private struct Inherited {
        var conditions: [RunCondition] = []
        var tags: [String] = []
        var always = false
        var row: ForEachRow?
        /// Whether this pass over the requests checks their names: the first row of a
        /// `for-each` does, the others repeat the same requests.
        var checksNames = true
        /// The include entry the requests come through, for messages.
        var includedAt: String?
    }

    /// A file read and decoded.
    private struct LoadedFile {
        var source: PipelineSource
        var decoded: DecodedFile
    }

    private(set) var diagnostics: [PipelineDiagnostic] = []
    /// Whether every included file could be read (and no include went round in a cycle).
    private var isComplete = true
    private var spec: PipelineSpec
    /// Decoded files by their real path, read once however often they are included.
    private var loaded: [String: LoadedFile] = [:]
    /// Files whose declarations are in the spec, by real path.
    private var declared: Set<String> = []
    /// The include path being followed: each file's real path and the entry that included it.
    private var stack: [(key: String, source: PipelineSource, includedAt: String?)] = []
    private var variableOrigins: [CodePointKey: String] = [:]
    private var requestOrigins: [CodePointKey: (location: String, includedAt: String?)] = [:]
    private var maxResponseSizeOrigin: String?
    /// Requests made so far, against ``maximumRequests``.
    private var requestCount = 0
    /// The rows of each `for-each` read so far, by where it is written: a nested one is read once.
    private var rowsRead: [String: [ForEachRow?]] = [:]

    /// The most requests a pipeline may expand to (nested `for-each` multiplies): a guard against a
    /// file that would fill memory before anything is sent.
    static let maximumRequests = 100_000

    /// Assembles the pipeline whose main file is `root`.
    /// - Returns: the spec, every problem found, and whether every file could be read: when one
    ///   could not, the spec lacks what it holds.
    static func assemble(root: YAMLNode, source: PipelineSource, defaultName: String) -> (spec: PipelineSpec, diagnostics: [PipelineDiagnostic], isComplete: Bool) {
        var assembly = PipelineAssembly(spec: PipelineSpec(name: defaultName, plugins: [], variables: [], stages: [], requests: []))
        var decoder = PipelineDecoder(source: source)
        let decoded = decoder.decode(root)
        for problem in decoder.problems { assembly.fail(source, problem.mark, problem.message) }
        if let name = decoded.name { assembly.spec.name = name }
        let key = PipelineAssembly.realPath(source)
        let file = LoadedFile(source: source, decoded: decoded)
        assembly.loaded[key] = file
        assembly.stack = [(key, source, nil)]
        assembly.spec.requests = assembly.requests(of: file, inherited: Inherited())
        return (assembly.spec, assembly.diagnostics, assembly.isComplete)
    }

    private init(spec: PipelineSpec) {
        self.spec = spec
    }

    private mutating func fail(_ source: PipelineSource, _ mark: YAMLNode.Mark, _ message: String) {
        diagnostics.append(PipelineDiagnostic(file: source.path, mark: mark, message: message))
    }

    /// The requests of a file where it is included, its declarations added the first time.
    private mutating func requests(of file: LoadedFile, inherited: Inherited) -> [RequestSpec] {
        var inherited = inherited
        inherited.tags += file.decoded.tags
        var requests: [RequestSpec] = []
        let key = PipelineAssembly.realPath(file.source)
        let declares = declared.insert(key).inserted
        // An included file's includes come first: their declarations, then their requests.
        for include in file.decoded.includes {
            guard let included = enter(include.path, from: file.source) else { continue }
            let through = Inherited(tags: inherited.tags, always: inherited.always, checksNames: inherited.checksNames, includedAt: file.source.location(include.path.mark))
            requests += self.requests(of: included, inherited: through)
            stack.removeLast()
        }
        if declares { declare(file) }
        for entry in file.decoded.entries {
            requests += self.requests(of: entry, in: file, inherited: inherited)
        }
        return requests
    }

    private mutating func requests(of entry: RequestEntry, in file: LoadedFile, inherited: Inherited) -> [RequestSpec] {
        switch entry {
        case .request(var request):
            requestCount += 1
            guard requestCount <= PipelineAssembly.maximumRequests else {
                if requestCount == PipelineAssembly.maximumRequests + 1 {
                    fail(request.source, request.mark, "the pipeline expands to more than \(PipelineAssembly.maximumRequests) requests (for-each rows multiply); split the data")
                    isComplete = false
                }
                return []
            }
            if inherited.checksNames { checkName(of: request, includedAt: inherited.includedAt) }
            request.conditions = inherited.conditions + request.conditions
            request.tags = PipelineAssembly.union(inherited.tags, request.tags)
            request.always = inherited.always || request.always
            request.row = inherited.row
            return [request]
        case .group(let group):
            var rows: [ForEachRow?] = group.forEachIsMalformed ? [.unread] : [nil]
            if let forEach = group.forEach {
                let key = file.source.location(forEach.mark)
                if let known = rowsRead[key] {
                    rows = known
                } else {
                    do {
                        rows = try forEach.rows(directory: file.source.directory)
                    } catch {
                        // The requests are still checked, once, with names nobody can know.
                        fail(file.source, error.mark, error.message)
                        rows = [.unread]
                    }
                    rowsRead[key] = rows
                }
            }
            var requests: [RequestSpec] = []
            for (index, row) in rows.enumerated() where requestCount <= PipelineAssembly.maximumRequests {
                var inner = inherited
                inner.conditions += group.conditions
                inner.tags = PipelineAssembly.union(inherited.tags, group.tags)
                inner.always = inherited.always || group.always
                if let row { inner.row = inherited.row.map { $0.merged(with: row) } ?? row }
                inner.checksNames = inherited.checksNames && index == 0
                if let include = group.include {
                    guard let included = enter(include, from: file.source) else { return requests }
                    inner.includedAt = file.source.location(include.mark)
                    requests += self.requests(of: included, inherited: inner)
                    stack.removeLast()
                } else {
                    for entry in group.entries { requests += self.requests(of: entry, in: file, inherited: inner) }
                }
            }
            return requests
        }
    }

    // MARK: Files

    /// Reads the file an `include` entry names and pushes it on the include path; `nil`, with a
    /// diagnostic, for a missing or unreadable file or a cycle.
    private mutating func enter(_ path: YAMLNode, from including: PipelineSource) -> LoadedFile? {
        let text = path.scalar ?? ""
        let resolved = StageOptions.resolve(text, against: including.directory)
        let shown = text.hasPrefix("/") ? text : (including.path as NSString).deletingLastPathComponent.isEmpty
            ? text : (including.path as NSString).deletingLastPathComponent + "/" + text
        let source = PipelineSource(path: shown, directory: URL(fileURLWithPath: resolved).deletingLastPathComponent())
        let key = PipelineAssembly.realPath(source, resolved: resolved)
        let location = including.location(path.mark)
        if let cycleStart = stack.firstIndex(where: { $0.key == key }) {
            let chain = stack[cycleStart...].map(\.source.path) + [shown]
            let steps = stack[(cycleStart + 1)...].compactMap(\.includedAt) + [location]
            isComplete = false
            fail(including, path.mark, "include cycle: " + chain.joined(separator: " includes ") + " again (included at " + steps.joined(separator: ", then ") + ")")
            return nil
        }
        let file: LoadedFile
        if let known = loaded[key] {
            file = known
        } else {
            guard let read = load(source, resolved: resolved, includedAt: path.mark, by: including) else {
                isComplete = false
                return nil
            }
            file = read
            loaded[key] = file
        }
        stack.append((key, file.source, location))
        return file
    }

    private mutating func load(_ source: PipelineSource, resolved: String, includedAt mark: YAMLNode.Mark, by including: PipelineSource) -> LoadedFile? {
        let text: String
        do {
            text = try InputFile.text(at: resolved, role: "the included file")
        } catch {
            fail(including, mark, "cannot include '\(source.path)': \(error.reason) (looked for \(resolved))")
            return nil
        }
        let document: YAMLNode?
        do {
            document = try YAMLReader().singleDocument(from: text, path: source.path, secondDocument: PipelineFile.secondDocument)
        } catch {
            diagnostics += error.diagnostics
            return nil
        }
        guard let root = document else {
            fail(including, mark, "'\(source.path)' is empty; an included file declares stages, variables or requests")
            return nil
        }
        var decoder = PipelineDecoder(source: source)
        let decoded = decoder.decode(root)
        for problem in decoder.problems { fail(source, problem.mark, problem.message) }
        return LoadedFile(source: source, decoded: decoded)
    }

    /// The path a file is known by: symbolic links resolved, so that two names of one file are
    /// one file.
    private static func realPath(_ source: PipelineSource, resolved: String? = nil) -> String {
        let path = resolved ?? StageOptions.resolve(source.path, against: nil)
        return URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    // MARK: Declarations

    /// Adds a file's plugins, variables, stages and settings, refusing what another file defined.
    private mutating func declare(_ file: LoadedFile) {
        let source = file.source
        spec.files.append(source)
        spec.plugins += file.decoded.plugins.map { Sourced(value: $0, source: source) }
        for pair in file.decoded.variables {
            guard let name = pair.key.scalar else { continue }
            if let first = variableOrigins[CodePointKey(name)] {
                fail(source, pair.key.mark, "variable '\(name)' is defined twice: here and at \(first); define it once, in a file both include")
            } else {
                variableOrigins[CodePointKey(name)] = source.location(pair.key.mark)
                spec.variables.append(Sourced(value: pair, source: source))
            }
        }
        spec.stages += file.decoded.stages
        if let size = file.decoded.maxResponseSize {
            if let first = maxResponseSizeOrigin {
                fail(source, size.mark, "max-response-size is set twice: here and at \(first)")
            } else {
                maxResponseSizeOrigin = source.location(size.mark)
                spec.maxResponseSize = size.value
            }
        }
        if file.decoded.failFast { spec.failFast = true }
        if let cookieFile = file.decoded.cookieFile {
            if let first = spec.cookieFile {
                fail(source, cookieFile.mark, "cookie-file is set twice: here and at \(first.source.location(first.value.mark))")
            } else {
                spec.cookieFile = Sourced(value: cookieFile, source: source)
            }
        }
    }

    /// Refuses a request name already used, naming where.
    private mutating func checkName(of request: RequestSpec, includedAt: String?) {
        let location = request.source.location(request.mark)
        guard let first = requestOrigins[CodePointKey(request.name)] else {
            requestOrigins[CodePointKey(request.name)] = (location, includedAt)
            return
        }
        if first.location == location {
            let places = [first.includedAt, includedAt].map { $0 ?? "the file itself" }
            fail(request.source, request.mark, "request '\(request.name)' is included twice: at \(places[0]) and at \(places[1]); names must be unique")
        } else {
            // Two requests alike with no name: of their own are the usual way here: say how.
            let defaulted = request.name.hasSameCodePoints(as: "\(request.method) \(request.path.scalar ?? "")")
            let hint = defaulted ? " (a request with no name: is named METHOD path: give these a name: each)" : ""
            fail(request.source, request.mark, "a request named '\(request.name)' is already defined at \(first.location); names must be unique\(hint)")
        }
    }

    private static func union(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set(first.map(CodePointKey.init))
        return first + second.filter { seen.insert(CodePointKey($0)).inserted }
    }
}
