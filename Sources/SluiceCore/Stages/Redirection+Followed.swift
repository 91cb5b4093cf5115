import Foundation

extension Redirection {
    /// A redirect a task followed.
    public struct Hop: Sendable, Hashable {
        /// The redirect response's status: 301, 302, 303, 307 or 308.
        public var status: Int
        /// The URL of the request the redirect answered, as the redirect stage sent it.
        public var from: URL
        /// The URL it led to: its `Location`, resolved against ``from``.
        public var to: URL

        /// Creates a hop.
        public init(status: Int, from: URL, to: URL) {
            self.status = status
            self.from = from
            self.to = to
        }
    }

    /// The task storage key of the redirects the task followed, in order, whether each response
    /// came from the network or from a cache below the stage; nothing is stored until the first.
    /// A call sent again (a retry above the stage) starts the list again at its first redirect.
    ///
    /// ```swift
    /// let handle = manager.task(request)
    /// _ = try await handle.value
    /// let hops = handle.context.storage[Redirection.Followed.self] ?? []
    /// ```
    public enum Followed: TaskStorageKey {
        /// The hops, first to last.
        public typealias Value = [Hop]
    }

    /// Adds `hop` to the task's ``Followed`` list; the first of a chain starts it again.
    @inline(never)
    static func record(_ hop: Hop, first: Bool, in context: TaskContext) {
        context.storage.update(Followed.self) { hops in
            hops = (first ? [] : hops ?? []) + [hop]
        }
    }
}
