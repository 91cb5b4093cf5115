import Foundation
import Testing
import HTTPTypes
import Sluice
@testable import SluiceCore
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad
import SluiceRetry
import SluiceHTTPTypes
import SluiceMetrics
import SluiceTracing

/// Every Swift example of the documentation is compiled and run: the README's in
/// `ReadmeExampleTests`, the DocC articles' and the other Markdown files' here (and the OpenAPI
/// one in `SluiceOpenAPITests`), the doc comments' of `Sources/` and `Plugins/` (which DocC
/// renders in the API reference) in `DocCommentExampleTests` (and `OpenAPIDocCommentExampleTests`),
/// each as written in its document, after the names it leaves to its reader are bound. The first
/// test fails when a block of the documentation is in none of those files, so an example cannot
/// change without its test.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A ```swift block of a Markdown file or of a doc comment.
    struct Block: CustomStringConvertible {
        let file: String
        let line: Int
        let code: String
        /// Marked `<!-- fragment: REASON -->` on the line before (`/// <!-- fragment: REASON -->`
        /// in a doc comment, which DocC does not render): not a program.
        let isFragment: Bool

        var description: String { "\(file):\(line)" }
    }

    /// The Markdown files of the repository: the READMEs, CONTRIBUTING.md and the DocC articles.
    /// `Tests/` (vendored suites with READMEs of their own) and hidden folders (`.build`) are left out.
    static func markdownFiles() -> [String] {
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]
        )
        var files: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative == "Tests" {
                enumerator?.skipDescendants()
            } else if url.pathExtension == "md" {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    /// The ```swift blocks of a Markdown text, fenced at any indentation (a list item's).
    static func swiftBlocks(in text: String, file: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence == "```swift" else {
                index += 1
                continue
            }
            let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let isFragment = isFragmentMarker(previous)
            var end = index + 1
            while end < lines.count && lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
            blocks.append(Block(
                file: file, line: index + 1, code: lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n"),
                isFragment: isFragment
            ))
            index = end + 1
        }
        return blocks
    }

    /// Whether a line (without its `///`) is a fragment marker.
    static func isFragmentMarker(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).wholeMatch(of: /<!-- fragment: .+ -->/) != nil
    }

    /// The Swift sources whose doc comments DocC renders: every `.swift` file under `Sources/`
    /// and `Plugins/`.
    static func sourceFiles() -> [String] {
        var files: [String] = []
        for folder in ["Sources", "Plugins"] {
            let top = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                files.append(folder + "/" + String(url.standardizedFileURL.path.dropFirst(top.standardizedFileURL.path.count + 1)))
            }
        }
        return files.sorted()
    }

    /// The text after `///` of each line of a Swift source, `nil` for a line that is no doc comment.
    static func docCommentLines(of text: String) -> [String?] {
        text.components(separatedBy: "\n").map { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : nil
        }
    }

    /// The ```swift blocks of the `///` doc comments of a Swift source: from a `///` line whose
    /// text starts with ```swift to the next one that starts with ```, without the `///` and the
    /// indentation all the block's lines share (so their relative indentation stays).
    static func docCommentBlocks(in text: String, file: String) -> [Block] {
        let comments = docCommentLines(of: text)
        var blocks: [Block] = []
        var index = 0
        while index < comments.count {
            guard let fence = comments[index], fence.trimmingCharacters(in: .whitespaces).hasPrefix("```swift") else {
                index += 1
                continue
            }
            // The marker is the comment's line before the fence, blank lines aside.
            var before = index - 1
            while before >= 0, let comment = comments[before], comment.trimmingCharacters(in: .whitespaces).isEmpty { before -= 1 }
            let isFragment = before >= 0 && comments[before].map(isFragmentMarker) == true
            var end = index + 1
            while end < comments.count, let comment = comments[end], !comment.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                end += 1
            }
            let lines = comments[(index + 1)..<end].map { $0 ?? "" }
            let indentation = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .map { $0.prefix { $0 == " " }.count }.min() ?? 0
            blocks.append(Block(
                file: file, line: index + 1,
                code: lines.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n"),
                isFragment: isFragment
            ))
            index = end + 1
        }
        return blocks
    }

    /// The modules a block imports.
    static func imports(of code: String) -> [String] {
        code.components(separatedBy: "\n").compactMap { line in
            line.trimmingCharacters(in: .whitespaces).wholeMatch(of: /import (\w+)/).map { String($0.1) }
        }
    }

    /// The code without its `import` lines, every run of white space one space.
    static func normalized(_ code: String) -> String {
        code.components(separatedBy: "\n")
            .filter { $0.trimmingCharacters(in: .whitespaces).wholeMatch(of: /import \w+/) == nil }
            .joined(separator: "\n")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The test files that hold the examples: every `*ExampleTests.swift` under `Tests/`.
    static func exampleSources() throws -> [(path: String, text: String)] {
        let tests = root.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        var sources: [(path: String, text: String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.lastPathComponent.hasSuffix("ExampleTests.swift") else { continue }
            sources.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
        }
        return sources
    }

    @Test("every Swift block of the README, the other READMEs, the DocC articles and the doc comments is in an example test, as written")
    func everyBlockIsTested() throws {
        let sources = try Self.exampleSources()
        #expect(sources.count >= 4, "\(sources.map(\.path))")
        let haystack = sources.map { Self.normalized($0.text) }.joined(separator: "\n")
        let imported = Set(sources.flatMap { Self.imports(of: $0.text) })
        var markdown: [Block] = []
        for file in Self.markdownFiles() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let found = Self.swiftBlocks(in: text, file: file)
            markdown += found
            let markers = text.components(separatedBy: "\n").filter(Self.isFragmentMarker).count
            #expect(markers == found.filter(\.isFragment).count, "\(file): a fragment marker that stands before no ```swift block")
        }
        var docComments: [Block] = []
        for file in Self.sourceFiles() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let found = Self.docCommentBlocks(in: text, file: file)
            docComments += found
            let markers = Self.docCommentLines(of: text).compactMap { $0 }.filter(Self.isFragmentMarker).count
            #expect(markers == found.filter(\.isFragment).count, "\(file): a fragment marker that stands before no ```swift block")
        }
        #expect(markdown.count >= 20, "the documentation's Swift blocks were not found: \(markdown)")
        #expect(docComments.count >= 30, "the doc comments' Swift blocks were not found: \(docComments)")
        // Fragments stay rare, counted apart so that one kind of documentation cannot spend the
        // other's: the Markdown's one is an excerpt of a manifest; the doc comments' one is the C
        // entry points of a stage module built as a shared library, which no test target can hold.
        let markdownFragments = markdown.filter(\.isFragment)
        #expect(markdownFragments.count <= 3, "fragments are to stay rare; make these examples run instead: \(markdownFragments)")
        let docCommentFragments = docComments.filter(\.isFragment)
        #expect(docCommentFragments.count <= 2, "fragments are to stay rare; make these examples run instead: \(docCommentFragments)")
        for block in markdown + docComments where !block.isFragment {
            let code = Self.normalized(block.code)
            #expect(!code.isEmpty, "\(block): an empty block")
            let isTested = haystack.contains(code)
            #expect(isTested, "\(block): this example is in no *ExampleTests.swift file as written; copy it there and run it:\n\(block.code)")
            for module in Self.imports(of: block.code) {
                #expect(imported.contains(module), "\(block): imports \(module), which no example test imports")
            }
        }
    }

    @Test("the checker finds fenced blocks at any indentation, honours the fragment marker, and ignores white space")
    func checker() {
        let text = """
            Text.

            ```swift
            let a = 1
            ```

            <!-- fragment: a manifest -->
            ```swift
            .package(path: "x")
            ```

            - An item:

              ```swift
              import Sluice
              let  b =
                  2
              ```
            """
        let blocks = Self.swiftBlocks(in: text, file: "x.md")
        #expect(blocks.map(\.line) == [3, 8, 14])
        #expect(blocks.map(\.isFragment) == [false, true, false])
        #expect(Self.normalized(blocks[2].code) == "let b = 2")
        #expect(Self.imports(of: blocks[2].code) == ["Sluice"])
    }

    @Test("the checker finds the doc comments' blocks at any indentation, keeps their relative indentation, and honours the fragment marker")
    func docCommentChecker() {
        let text = """
            /// A type.
            ///
            /// ```swift
            /// let a = 1
            /// ```
            struct A {
                /// A member.
                ///
                /// <!-- fragment: an elided body -->
                ///
                /// ```swift
                /// func f() { ... }
                /// ```
                ///
                ///```swift
                ///if b {
                ///    c()
                ///}
                ///```
                func f() {}
            }
            // ```swift
            // not a doc comment
            // ```
            """
        let blocks = Self.docCommentBlocks(in: text, file: "x.swift")
        #expect(blocks.map(\.line) == [3, 11, 15])
        #expect(blocks.map(\.isFragment) == [false, true, false])
        #expect(blocks.map(\.code) == ["let a = 1", "func f() { ... }", "if b {\n    c()\n}"])
        #expect(Self.docCommentLines(of: text).compactMap { $0 }.filter(Self.isFragmentMarker).count == 1)
    }
}

// MARK: SluiceCore

extension DocumentationExampleTests {
    @Test("SluiceCore's landing page: a pipeline over CurlTransport.shared resolves a path template")
    func coreLandingPage() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport.shared) {
            try URLResolution(baseURL: base)   // such as "https://api.example.com/v1"
            ResponseDecoding(format: .json)
        })
        let response = try await manager.send(Request("anything/users/{id}", pathParameters: ["id": "42"]))
        #expect(response.decoded?.value?["url"]?.stringValue == base + "/anything/users/42")
    }

    @Test("The chain: a custom hop stage runs on every hop")
    func chainHopStage() async throws {
        let servers = try TestServers.load()
        struct WireLog: Stage {
            static var placement: StagePlacement { .hop }
            func handle(_ request: Request, context: TaskContext,
                        next: (Request, TaskContext) async throws -> Response) async throws -> Response {
                try await next(request, context)
            }
        }
        #expect(WireLog().placement == .hop)
        let manager = SessionManager(pipeline: try Pipeline { WireLog() })
        let response = try await manager.send(Request(url: servers.httpbin("redirect/2")))
        #expect(response.status == 200)
        #expect(response.url?.path == "/get")
    }

    @Test("The chain: a task handle is suspended, resumed and awaited, with a monitor")
    func chainTaskHandle() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline {}
        let monitor = EventRecorder()
        let request = Request(url: servers.httpbin("get"))
        let manager = SessionManager(pipeline: pipeline, monitors: [monitor])
        let handle = manager.task(request)
        handle.suspend()
        handle.resume()
        let response = try await handle.value
        #expect(response.status == 200)
        #expect(monitor.kinds(for: handle.id).contains { if case .completed = $0 { true } else { false } })
    }

    @Test("Stages: a request stage stamps each request")
    func writingStages() async throws {
        let servers = try TestServers.load()
        struct Stamp: RequestStage {
            var name: String { "stamp" }
            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                request.headers["X-Stamp"] = "\(context.id)"
                return request
            }
        }
        let response = try await SessionManager(pipeline: try Pipeline { Stamp() }).send(Request(url: servers.httpbin("headers")))
        let stamp = try #require((try response.jsonObject()["headers"] as? [String: String])?["X-Stamp"])
        #expect(stamp.hasPrefix("task-"))
    }

    @Test("The built-in stages: URL resolution, header injection, JSON serialization and decoding")
    func builtInStages() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let pipeline = try Pipeline {
            try URLResolution(baseURL: base)
            HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer("token-123"))
            Serialization(format: .json)
            ResponseDecoding(format: .json)
        }
        let manager = SessionManager(pipeline: pipeline)
        let request = Request(method: .post, "anything/users/{id}", pathParameters: ["id": "42"],
                              parameters: ["login": "zoe", "admin": false])
        let response = try await manager.send(request)
        #expect(response.decoded?.value?["json"] == ["login": "zoe", "admin": false])
        #expect(response.decoded?.value?["headers"]?["Authorization"] == "Bearer token-123")
    }

    @Test("The built-in stages: a disk cache answers the second request from its store")
    func diskCache() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let cacheDirectory = directory.url
        let url = servers.nginx("cached/hello.txt?documentation=\(UUID().uuidString)")
        let cache = ResponseCaching(store: try DiskCacheStore(directory: cacheDirectory),  // such as /var/cache/app
                                    staleIfError: .seconds(3600))
        let pipeline = try Pipeline { CookieHandling(); cache }
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: url))
        if let outcome = response.cacheOutcome {
            print(outcome)  // hit, miss, revalidated or stale
        }
        #expect(response.cacheOutcome == .miss)
        let again = try await SessionManager(pipeline: pipeline).send(Request(url: url))
        #expect(again.cacheOutcome == .hit)
        #expect(String(decoding: again.body, as: UTF8.self) == "hello from nginx\n")
    }

    @Test("Trust and pinning: a public-key pin and a backup CA pin pass the genuine nginx")
    func trustAndPinning() async throws {
        let servers = try TestServers.load()
        let pin = servers.pins.localhost
        let backupCA = servers.certificates + "/ca.pem"
        let caBundle = servers.caBundle
        let base = servers.nginxHTTPS.absoluteString
        let pins = try TrustPin.pins(from: pin)        // "sha256//BASE64", such as "sha256//SsB67DVfKDK+S1pMQyA4oAJZSQPbdQzb4T1oDdDIrPY="
            + TrustPin.pins(from: backupCA)            // the path of a PEM or DER file; several pins are backups
        let pipeline = try Pipeline {
            try URLResolution(baseURL: base)           // such as "https://api.example.com/v1"
            TrustEvaluation(policy: try TrustPolicy(pinning: .publicKey, pins: pins, caBundle: caBundle))
        }
        #expect(pins.count == 2)
        let response = try await SessionManager(pipeline: pipeline).send(Request("hello.txt"))
        #expect(String(decoding: response.body, as: UTF8.self) == "hello from nginx\n")
    }

    @Test("Files you name: a download lands at the path named")
    func filesYouName() async throws {
        let servers = try TestServers.load()
        let archive = servers.nginx("medium.bin")
        let folder = try TemporaryDirectory()
        let downloads = folder.url
        let manager = SessionManager(pipeline: try Pipeline {})
        let destination = downloads.appendingPathComponent("latest.tar.gz")
        let saved = try await manager.download(Request(url: archive), to: destination)
        print(saved.bodyFile!.path)
        #expect(saved.bodyFile?.standardizedFileURL == destination.standardizedFileURL)
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
        #expect(size == 3 << 20)
    }

    @Test("Tasks and errors: a request's own total timeout ends it with .timeout, read through localizedDescription")
    func requestTimeout() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: servers.httpbin) })
        var slow = Request("delay/3")
        slow.timeouts.total = .seconds(1)
        do {
            _ = try await manager.send(slow)
        } catch let error as SluiceError where error.kind == .timeout {
            print(error.localizedDescription)   // timeout in transport for http://…/delay/3: Operation timed out after 1000 milliseconds
        }
        // The same request again: it ends with .timeout, not the server's answer.
        await #expect { try await manager.send(slow) } throws: { ($0 as? SluiceError)?.kind == .timeout }
    }

    @Test("Streaming: a 3 MiB body read piece by piece")
    func streamingDownload() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.nginx("medium.bin")
        let response = try await manager.stream(Request(url: url))
        var bytes = 0
        for try await piece in response.bodyStream! {
            bytes += piece.count
        }
        #expect(bytes == 3 << 20)
    }

    @Test("Streaming: a request body from an AsyncStream arrives whole")
    func streamingUpload() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.httpbin("post")
        let lines = AsyncStream<Data> { continuation in
            for line in ["first\n", "second\n"] { continuation.yield(Data(line.utf8)) }
            continuation.finish()
        }
        let upload = Request(method: .post, url: url, body: .stream(RequestBodyStream(lines)))
        let uploaded = try await manager.send(upload)
        #expect(try uploaded.jsonObject()["data"] as? String == "first\nsecond\n")
    }

    @Test("Streaming: server-sent events until the feed answers 204")
    func serverSentEvents() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let key = "documentation-\(UUID().uuidString)"
        let feed = URL(string: servers.scenario.absoluteString + "/events/\(key)?count=3&retry=10")!
        for try await event in manager.events(Request(url: feed), options: .init(maxReconnects: 5)) {
            print(event.type, event.lastEventID, event.data)
        }
        // The loop ended: the stream sent its three events, and the reconnection after the third
        // (with its ID) was answered 204.
        let log = try await manager.send(Request(url: servers.scenario.appendingPathComponent("events-log/\(key)")))
        let ids = try #require(try log.jsonObject()["last_event_ids"] as? [Any]).map { $0 as? String }
        #expect(ids == [nil, "3"])
    }
}

// MARK: SluiceCurl, SluiceReachability, SluiceRunner, SluiceLoad

extension DocumentationExampleTests {
    @Test("The libcurl transport: a task group spread over transport.executors")
    func transportExecutors() async throws {
        let servers = try TestServers.load()
        let urls = (0..<8).map { servers.nginx($0.isMultiple(of: 2) ? "data.json" : "hello.txt") }
        let transport = CurlTransport()
        let manager = SessionManager(pipeline: try Pipeline(transport: transport))
        let executors = transport.executors
        let statuses = await withTaskGroup(of: Int.self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask(executorPreference: executors[index % executors.count]) {
                    (try? await manager.send(Request(url: url)).status) ?? 0
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        await transport.shutdown()
    }

    @Test("The libcurl transport: a task sleeping on its I/O thread")
    func sleepOnTheIOThread() async throws {
        let start = ContinuousClock.now
        let transport = CurlTransport()
        if let executor = transport.executor as? any TimedTaskExecutor {
            await withTaskExecutorPreference(executor) {
                await executor.sleep(until: .now + .milliseconds(5))
            }
        }
        #expect(ContinuousClock.now - start >= .milliseconds(5))
        await transport.shutdown()
    }

    /// What the reachability example calls for each status.
    final class Reactions: Sendable {
        let seen = Locked<[String]>([])
        func record(_ reaction: String) { seen.withLock { $0.append(reaction) } }
        var all: [String] { seen.withLock { $0 } }
    }

    @Test("Reachability: the monitor's updates, switched on, until the task is cancelled")
    func reachability() async throws {
        let reactions = Reactions()
        let host = "127.0.0.1"
        let watching = Task {
            func syncLess() { reactions.record("less") }
            func syncAll() { reactions.record("all") }
            func pause() { reactions.record("pause") }
            let monitor = ReachabilityMonitor(host: host)   // a name or an address; ReachabilityMonitor() for the network at large
            try monitor.start()                             // returns at once; the name resolves on the monitor's thread
            monitor.onChange { update in print("\(host): \(update)") }   // the callback form, on the monitor's thread
            for await update in monitor.updates() {         // the status now, then each change
                switch update.status {
                case .reachable(.cellular): syncLess()
                case .reachable: syncAll()
                case .notReachable, .unknown: pause()
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while reactions.all.isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        watching.cancel()
        try await watching.value
        #expect(!reactions.all.isEmpty, "the monitor reported nothing")
        #expect(Set(reactions.all).isSubset(of: ["all", "pause"]), "\(reactions.all)")
    }

    @Test("Pipeline files and the runner: the demo runs with a registered module and a stage of the program's own")
    func runnerFromSwift() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let path = Self.root.appendingPathComponent("pipelines/demo.yaml").path
        var registry = StageRegistry.builtIn
        try registry.register(RetryModule.self)
        try registry.register(StageDescriptor(
            name: "stamp", summary: "Adds an X-Stamp header.",
            options: [OptionDescriptor("value", .string, required: true, summary: "The header's value.")]
        ) { options in
            HeaderInjection(headers: ["X-Stamp": options.string("value")!], userAgent: .none, acceptLanguage: .none)
        })
        let file = try PipelineFile.load(path: path, variables: ["base": base], registry: registry)
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        print(results.map { "\($0.name) \($0.ok)" })
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
        let stamped = try PipelineFile.load(
            text: "stages:\n  - stamp: { value: s1 }\nrequests:\n  - path: \(base)/headers\n    expect: { body: { \"$.headers['X-Stamp']\": s1 } }\n",
            path: "stamp.yaml", registry: registry
        )
        #expect(try await PipelineRunner(file: stamped, transport: CurlTransport.shared).run().map(\.ok) == [true])
    }

    @Test("Load testing: the article's plan, and its run on a shorter ramp")
    func loadTesting() async throws {
        let plan = LoadPlan(duration: .seconds(60), rate: LoadRate(from: 100, to: 2000), concurrency: 256)
        #expect(plan.isOpenLoop && plan.concurrency == 256 && plan.duration == .seconds(60))
        do {
            // The run as written, with a plan of one second from 20 to 60 requests a second.
            let plan = LoadPlan(duration: .seconds(1), rate: LoadRate(from: 20, to: 60), concurrency: 256)
            let servers = try TestServers.load()
            let directory = try TemporaryDirectory()
            let path = try LoadModeTests.pipeline(directory, path: "/hello.txt", name: "checkout")
            let base = servers.nginxHTTP.absoluteString
            let transport = CurlTransport(configuration: .init().allowing(connections: plan.shardConcurrency))
            let file = try PipelineFile.load(path: path, variables: ["base": base])
            let result = try await LoadRun(runner: PipelineRunner(file: file, transport: transport), plan: plan).run()
            print(result.achievedRate, result.responseTime.p99, result.serviceTime.p99, result.dropped)
            #expect(result.requests == 40 && result.ok == 40 && result.dropped == 0, "\(result.requests) \(result.ok) \(result.dropped)")
            await transport.shutdown()
        }
    }

    @Test("pipelines/README's 'Writing a pipeline' file runs as written against the local httpbin")
    func writingAPipeline() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let readme = try String(contentsOf: Self.root.appendingPathComponent("pipelines/README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Writing a pipeline"))
        let start = try #require(readme.range(of: "```yaml\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        var registry = StageRegistry.builtIn
        try registry.register(RetryModule.self)
        let file = try PipelineFile.load(
            text: String(readme[start.upperBound..<end.lowerBound]), path: "writing.yaml", variables: ["base": base],
            registry: registry
        )
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
    }

    @Test("pipelines/README's JSONPath example runs as written against the local httpbin")
    func jsonPathFilters() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let readme = try String(contentsOf: Self.root.appendingPathComponent("pipelines/README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "JSONPath is the whole of RFC 9535"))
        let start = try #require(readme.range(of: "```yaml\n", range: marker.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let requests = String(readme[start.upperBound..<end.lowerBound])
        let pipeline = "stages:\n  - url-resolution: { base-url: \"\(base)\" }\n  - serialization: { format: json }\n  - response-decoding\n" + requests
        let file = try PipelineFile.load(text: pipeline, path: "readme-jsonpath.yaml")
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
        #expect(results.first?.captured["first-failed"] == 2, "a captured number stays a number")
    }

    @Test("pipelines/README's credential: example passes Apache's Digest, its host swapped for the local Apache's")
    func credentialExample() async throws {
        let secret = try TestServers.load().apacheDigest.appendingPathComponent("digest/secret.txt").absoluteString
        let readme = try String(contentsOf: Self.root.appendingPathComponent("pipelines/README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "- **`credential:`** on a request"))
        let start = try #require(readme.range(of: "```yaml\n", range: marker.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "  ```", range: start.upperBound..<readme.endIndex))
        let text = String(readme[start.upperBound..<end.lowerBound]).split(separator: "\n").map { $0.dropFirst(2) }.joined(separator: "\n")
        let file = try PipelineFile.load(
            text: text.replacingOccurrences(of: "https://api.example.test/report", with: secret), path: "readme-credential.yaml",
            environment: ["API_PASSWORD": "wonder land 7"]
        )
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.status) == [200], "\(results.map(\.failures)) \(results.map(\.error))")
    }

    @Test("pipelines/README's checks example runs as written against the local httpbin")
    func checksExample() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        let readme = try String(contentsOf: Self.root.appendingPathComponent("pipelines/README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "## Checks: queries, filters, predicates"))
        let start = try #require(readme.range(of: "```yaml\n", range: marker.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let file = try PipelineFile.load(text: String(readme[start.upperBound..<end.lowerBound]), path: "readme-checks.yaml", variables: ["base": base])
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true, true], "\(results.map(\.failures)) \(results.map(\.error))")
        #expect(results.first?.captured["heading"] == "Herman Melville - Moby-Dick")
    }
}

// MARK: Stage modules (Plugins/README.md)

extension DocumentationExampleTests {
    @Test("Plugins/README's stage module: registered, named in a pipeline with a prefix, and sent")
    func stageModule() async throws {
        let base = try TestServers.load().httpbin.absoluteString
        struct RequestID: RequestStage {
            var header = "X-Request-ID"
            var prefix = ""
            var name: String { "request-id" }

            func prepare(_ request: Request, context: TaskContext) async throws -> Request {
                var request = request
                if !request.headers.contains(header) {
                    request.headers[header] = prefix + UUID().uuidString
                }
                return request
            }
        }

        enum RequestIDModule: StageModule {
            static var stages: [StageDescriptor] {
                let standard = RequestID()   // made with no options: what an option left out takes
                return [
                    StageDescriptor(
                        name: "request-id",
                        summary: "Gives every request an id of its own in a header (\(standard.header) by default).",
                        options: [
                            OptionDescriptor("header", .string, default: standard.header, summary: "The header's name."),
                            OptionDescriptor("prefix", .string, default: "\"\(standard.prefix)\"", summary: "Text put before each id."),
                        ]
                    ) { options in
                        RequestID(header: options.string("header") ?? standard.header, prefix: options.string("prefix") ?? standard.prefix)
                    }
                ]
            }
        }
        var registry = StageRegistry.builtIn
        try registry.register(RequestIDModule.self)
        let file = try PipelineFile.load(
            text: """
                stages:
                  - request-id: { header: X-Correlation-ID, prefix: "ci-" }
                requests:
                  - path: \(base)/headers
                    expect: { body: { "$.headers['X-Correlation-Id']": { matches: "^ci-[0-9A-F-]{36}$" } } }
                """,
            path: "request-id.yaml", registry: registry
        )
        let results = try await PipelineRunner(file: file, transport: CurlTransport.shared).run()
        #expect(results.map(\.ok) == [true], "\(results.map(\.failures)) \(results.map(\.error))")
    }
}

// MARK: The integrations

extension DocumentationExampleTests {
    @Test("SluiceHTTPTypes: an HTTPRequest sent through Sluice to httpbin, its response as an HTTPResponse")
    func httpTypes() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let url = servers.httpbin("headers")
        let request = try Request(HTTPRequest(method: .get, url: url, headerFields: [.accept: "application/json"]))
        let head = try HTTPResponse(try await manager.send(request))
        #expect(head.status == .ok)
        #expect(head.headerFields[.contentType] == "application/json")
    }

    @Test("SluiceMetrics: a manager with a metrics monitor sends as any other")
    func metrics() async throws {
        let servers = try TestServers.load()
        let manager = SessionManager(pipeline: try Pipeline {}, monitors: [MetricsMonitor(pipeline: "checkout")])
        let response = try await manager.send(Request(url: servers.httpbin("get")))
        #expect(response.status == 200)
    }

    @Test("SluiceTracing: request and exchange tracing around a retry")
    func tracing() async throws {
        let servers = try TestServers.load()
        let pipeline = try Pipeline {
            RequestTracing()
            Retry()
            ExchangeTracing()
        }
        let response = try await SessionManager(pipeline: pipeline).send(Request(url: servers.httpbin("get")))
        #expect(response.status == 200)
    }
}
