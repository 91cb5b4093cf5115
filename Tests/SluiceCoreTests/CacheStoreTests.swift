import Foundation
import Testing

@testable import SluiceCore

/// The memory and disk stores: bounds and LRU eviction, 304 updates, and the disk store's files
/// under crashes, corruption, hostile contents and several users of one directory.
@Suite("Cache stores")
struct CacheStoreTests {
    private func response(_ key: String, bytes: Int, fill: UInt8 = 0x61) -> CachedResponse {
        CachedResponse(
            head: CachedResponse.Head(
                key: key, status: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"\(key)\""], url: key, httpVersion: .http1_1,
                requestTime: Date(timeIntervalSince1970: 1_800_000_000), responseTime: Date(timeIntervalSince1970: 1_800_000_001), vary: nil
            ),
            body: CachedBody(Data(repeating: fill, count: bytes))
        )
    }

    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-cache-tests-\(UUID().uuidString)")
        return url
    }

    @Test("memory: bounded by bytes, least recently used evicted first, a hit counting as a use")
    func memoryEviction() throws {
        let store = MemoryCacheStore(capacity: 10_000)
        for index in 0..<4 { try store.store(response("k\(index)", bytes: 2000)) }
        _ = store.response(for: "k0")
        try store.store(response("k4", bytes: 2000))
        #expect(store.size <= 10_000)
        #expect(store.response(for: "k0") != nil, "k0 was used last but one")
        #expect(store.response(for: "k1") == nil, "k1 was the least recently used")
        try store.store(response("huge", bytes: 20_000))
        #expect(store.response(for: "huge") == nil)
    }

    @Test("update after a 304 keeps the body, and does nothing when the stored body changed meanwhile", arguments: [false, true])
    func update(onDisk: Bool) throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        let store: any CacheStore = onDisk ? try DiskCacheStore(directory: location) : MemoryCacheStore()
        let original = response("k", bytes: 100)
        try store.store(original)
        var head = original.head
        head.headers["X-Merged"] = "1"
        try store.update(head)
        let updated = try #require(store.response(for: "k"))
        #expect(updated.head.headers["X-Merged"] == "1")
        #expect(try updated.body.data() == Data(repeating: 0x61, count: 100))
        try store.store(response("k", bytes: 50, fill: 0x62))
        head.headers["X-Merged"] = "2"
        try store.update(head)
        let replaced = try #require(store.response(for: "k"))
        #expect(replaced.head.headers["X-Merged"] == nil && replaced.body.count == 50)
    }

    @Test("disk: a round trip keeps every field byte for byte; a second store on the directory sees it")
    func diskRoundTrip() throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        let store = try DiskCacheStore(directory: location)
        var entry = response("http://example.com/caf\u{E9}?q=1", bytes: 200_000)
        entry.head.headers.add(name: "X-Text", value: "cafe\u{301} \u{1F600} \"quoted\" \\ back")
        entry.head.vary = "abc"
        try store.store(entry)
        let other = try DiskCacheStore(directory: location)
        let read = try #require(other.response(for: entry.head.key))
        #expect(read.head == entry.head)
        #expect(Array(read.head.headers["X-Text"]!.utf8) == Array("cafe\u{301} \u{1F600} \"quoted\" \\ back".utf8))
        #expect(try read.body.data() == (try entry.body.data()))
        // The canonically equivalent key is another key.
        #expect(other.response(for: "http://example.com/cafe\u{301}?q=1") == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: location.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test("disk: a truncated, malformed, or misplaced entry is a miss and is removed; nothing crashes")
    func hostileFiles() throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        let store = try DiskCacheStore(directory: location)
        try store.store(response("a", bytes: 1000))
        try store.store(response("b", bytes: 1000))
        let fileA = location.appendingPathComponent(SHA256.hex(Array("a".utf8)) + ".entry")
        let fileB = location.appendingPathComponent(SHA256.hex(Array("b".utf8)) + ".entry")
        let whole = try Data(contentsOf: fileA)
        // Cut mid-body, as a power cut after a rename could leave it.
        try whole.prefix(whole.count - 10).write(to: fileA)
        #expect(store.response(for: "a") == nil)
        #expect(!FileManager.default.fileExists(atPath: fileA.path))
        // Another key's entry under this key's name: a miss, never the other response.
        try FileManager.default.copyItem(at: fileB, to: fileA)
        #expect(store.response(for: "a") == nil)
        let hostile: [Data] = [
            Data(), Data("sluice-cache 1\n".utf8), Data("sluice-cache 1\n99999999999\n{}".utf8), Data("sluice-cache 1\n2\n{}".utf8),
            Data("sluice-cache 1\n-5\n{}".utf8), Data("not a cache entry at all, just bytes".utf8),
            Data("sluice-cache 1\n40\n{\"key\":\"a\",\"status\":\"two hundred\"}    ".utf8),
            whole.prefix(60), Data(whole.map { $0 == UInt8(ascii: "{") ? UInt8(ascii: "[") : $0 }),
        ]
        for bytes in hostile {
            try bytes.write(to: fileA)
            #expect(store.response(for: "a") == nil)
        }
        #expect(store.response(for: "b") != nil)
    }

    @Test("disk: a crash mid-write leaves a temporary file, never a torn entry; eviction removes it once an hour old")
    func crashLeftovers() throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        _ = try DiskCacheStore(directory: location)
        let old = location.appendingPathComponent(".tmp-crashed-long-ago")
        let recent = location.appendingPathComponent(".tmp-being-written")
        try Data(count: 5000).write(to: old)
        try Data(count: 5000).write(to: recent)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: old.path)
        let store = try DiskCacheStore(directory: location)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path), "another process may be writing it")
        #expect(store.response(for: "crashed-long-ago") == nil)
    }

    @Test("disk: bounded by bytes across many writes, the least recently used (by file time) evicted first")
    func diskEviction() throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        let store = try DiskCacheStore(directory: location, capacity: 100_000)
        for index in 0..<10 {
            try store.store(response("k\(index)", bytes: 9000))
            // File times order the uses: set them apart, as a busy second would.
            let path = location.appendingPathComponent(SHA256.hex(Array("k\(index)".utf8)) + ".entry").path
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(Double(index - 100))], ofItemAtPath: path)
        }
        #expect(store.response(for: "k0") != nil)  // k0 is now the most recently used.
        for index in 10..<15 { try store.store(response("k\(index)", bytes: 9000)) }
        #expect(store.size <= 100_000)
        #expect(store.response(for: "k0") != nil)
        #expect(store.response(for: "k1") == nil)
        try store.store(response("huge", bytes: 200_000))
        #expect(store.response(for: "huge") == nil)
    }

    @Test("disk: four stores on one directory writing and reading at once, as four processes would, stay within bound and never read a torn entry")
    func sharedDirectory() async throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        let capacity: Int64 = 400_000
        let stores = try (0..<4).map { _ in try DiskCacheStore(directory: location, capacity: capacity) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, store) in stores.enumerated() {
                group.addTask {
                    for round in 0..<60 {
                        let key = "k\((round * 7 + number) % 25)"
                        let fill = UInt8(round % 200 + 1)
                        try store.store(response(key, bytes: 10_000, fill: fill))
                        if let read = store.response(for: "k\(round % 25)") {
                            let body = try read.body.data()
                            #expect(body.count == 10_000 && Set(body).count == 1, "a torn or mixed body")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(stores[0].size <= capacity + 4 * capacity / 10)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: location.path).contains { $0.hasPrefix(".tmp-") })
    }

    @Test("disk: a path that is a file is refused with a typed error")
    func notADirectory() throws {
        let location = try directory()
        defer { try? FileManager.default.removeItem(at: location) }
        try Data("x".utf8).write(to: location)
        #expect(throws: SluiceError.self) { try DiskCacheStore(directory: location) }
    }
}
