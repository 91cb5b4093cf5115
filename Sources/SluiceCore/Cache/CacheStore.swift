/// Where a ``ResponseCaching`` stage keeps responses: one stored response per key (the request's
/// URL without its fragment), as OkHttp and browsers keep one per URL.
///
/// Sluice offers ``MemoryCacheStore`` and ``DiskCacheStore``; both are bounded by bytes and evict
/// the least recently used responses first. A store is shared by every task of the stages that
/// use it and must be safe to call from any thread. Its methods are called on the task's thread,
/// so a store that does I/O keeps each call short.
public protocol CacheStore: Sendable {
    /// The response stored for `key`, or `nil`. A hit counts as a use for eviction.
    func response(for key: String) -> CachedResponse?
    /// Stores `response` for its key, replacing any response stored for it; a response larger
    /// than the store can hold is not stored.
    /// - Throws: what writing it throws; the stage then goes on without storing.
    func store(_ response: CachedResponse) throws
    /// Replaces the head of the response stored for `head.key` (after a `304 Not Modified`),
    /// keeping its body; does nothing when the body stored for the key is no longer the one `head`
    /// describes.
    func update(_ head: CachedResponse.Head) throws
    /// Removes the response stored for `key`, if there is one.
    func remove(_ key: String)
}
