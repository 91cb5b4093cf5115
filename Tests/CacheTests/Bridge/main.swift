import Foundation
import Sluice

// The cache-tests harness's way into Sluice: requests arrive on standard input as JSON lines,
// each goes through one long-lived SessionManager whose pipeline holds a ResponseCaching stage
// (over a memory store, or a disk store in a directory), and each response goes back on standard
// output as a JSON line, tagged with its request's id. Requests are handled at once, in parallel,
// as the suite sends them.
//
//   sluice-cache-bridge --store memory
//   sluice-cache-bridge --store disk --directory PATH

struct BridgeRequest: Decodable {
    var id: Int
    var method: String
    var url: String
    var headers: [[String]]
    var body: String?
    var redirect: String?
}

struct BridgeResponse: Encodable {
    var id: Int
    var status: Int?
    var headers: [[String]]?
    var body: String?
    var error: String?
}

let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

let store: any CacheStore
switch argument("--store") {
case "disk":
    guard let directory = argument("--directory") else {
        FileHandle.standardError.write(Data("sluice-cache-bridge: --store disk needs --directory PATH\n".utf8))
        exit(2)
    }
    store = try DiskCacheStore(directory: URL(fileURLWithPath: directory))
case "memory", nil:
    store = MemoryCacheStore()
case let other?:
    FileHandle.standardError.write(Data("sluice-cache-bridge: --store is memory or disk, not \(other)\n".utf8))
    exit(2)
}

// One cache, two chains: fetch's redirect "follow" (the default) and "manual".
let following = SessionManager(pipeline: try Pipeline(stages: [ResponseCaching(store: store)]))
let manual = SessionManager(pipeline: try Pipeline(stages: [ResponseCaching(store: store)], redirects: nil))
let output = NSLock()

func reply(_ response: BridgeResponse) {
    guard let line = try? JSONEncoder().encode(response) else { return }
    output.lock()
    FileHandle.standardOutput.write(line + Data("\n".utf8))
    output.unlock()
}

func handle(_ line: String) async {
    guard let request = try? JSONDecoder().decode(BridgeRequest.self, from: Data(line.utf8)) else {
        FileHandle.standardError.write(Data("sluice-cache-bridge: not a request: \(line)\n".utf8))
        return
    }
    var sent = Request(method: HTTPMethod(request.method), request.url)
    for pair in request.headers where pair.count == 2 {
        sent.headers.add(name: pair[0], value: pair[1])
    }
    if let body = request.body, let data = Data(base64Encoded: body) {
        sent.body = .data(data)
    }
    do {
        let response = try await (request.redirect == "manual" ? manual : following).send(sent)
        reply(BridgeResponse(
            id: request.id, status: response.status, headers: response.headers.map { [$0.name, $0.value] },
            body: response.body.base64EncodedString()
        ))
    } catch {
        reply(BridgeResponse(id: request.id, error: "\(error)"))
    }
}

let lines = AsyncStream<String> { continuation in
    let reader = Thread {
        while let line = readLine(strippingNewline: true) {
            continuation.yield(line)
        }
        continuation.finish()
    }
    reader.start()
}

await withTaskGroup(of: Void.self) { group in
    for await line in lines {
        group.addTask { await handle(line) }
    }
}
