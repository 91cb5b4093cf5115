import Foundation

/// A ``CacheStore`` in memory, bounded by the bytes of its bodies and heads; past the bound the
/// least recently used responses go first. Bodies that arrived in a file are read into memory
/// when stored, so a download is only kept when it fits.
public final class MemoryCacheStore: CacheStore {
    /// The most bytes the store holds.
    public let capacity: Int64

    private struct Entry {
        var response: CachedResponse
        var size: Int64
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var size: Int64 = 0
        var clock: UInt64 = 0
    }

    private let state = Locked(State())

    /// 16 MiB: the default bound.
    public static let defaultCapacity: Int64 = 16 << 20

    /// Creates an empty store holding at most `capacity` bytes.
    public init(capacity: Int64 = MemoryCacheStore.defaultCapacity) {
        self.capacity = max(0, capacity)
    }

    /// The bytes the store holds now: bodies and an estimate of the heads.
    public var size: Int64 {
        state.withLock { $0.size }
    }

    /// The keys stored now, least recently used first.
    public var keys: [String] {
        state.withLock { state in state.entries.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key) }
    }

    /// The response stored for `key`, marked as the most recently used.
    public func response(for key: String) -> CachedResponse? {
        state.withLock { state in
            guard state.entries[key] != nil else { return nil }
            state.clock += 1
            state.entries[key]!.lastUse = state.clock
            return state.entries[key]!.response
        }
    }

    /// Stores the response, its body read into memory, evicting the least recently used down to
    /// 90% of the bound when it is passed; a response larger than the bound is not stored.
    public func store(_ response: CachedResponse) throws {
        let size = MemoryCacheStore.headSize(response.head) + response.body.count
        guard size <= capacity else {
            remove(response.head.key)
            return
        }
        let inMemory = CachedResponse(head: response.head, body: CachedBody(try response.body.data()))
        state.withLock { state in
            if let old = state.entries[response.head.key] { state.size -= old.size }
            state.clock += 1
            state.entries[response.head.key] = Entry(response: inMemory, size: size, lastUse: state.clock)
            state.size += size
            guard state.size > capacity else { return }
            // Evict to 90% of the bound, so that a full store does not sort on every write.
            let target = capacity - capacity / 10
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where state.size > target {
                state.entries[key] = nil
                state.size -= entry.size
            }
        }
    }

    /// Replaces the head of the stored response when its body is the one `head` names.
    public func update(_ head: CachedResponse.Head) throws {
        state.withLock { state in
            guard var entry = state.entries[head.key], entry.response.head.bodyID == head.bodyID else { return }
            let size = MemoryCacheStore.headSize(head) + entry.response.body.count
            state.size += size - entry.size
            entry.response.head = head
            entry.size = size
            state.entries[head.key] = entry
        }
    }

    /// Removes the response stored for `key`.
    public func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.size -= old.size }
        }
    }

    /// The bytes a head takes, near enough: its text and a fixed overhead.
    private static func headSize(_ head: CachedResponse.Head) -> Int64 {
        Int64(head.key.utf8.count + head.url.utf8.count + head.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + 256)
    }
}
