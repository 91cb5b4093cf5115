extension ServerSentEventSource {
    /// Reads events until `count` have arrived, `within` has passed (`nil`: no time limit), or the
    /// source ends (a 204), whichever comes first, handing each to `receive` with the head of the connection it came
    /// on. Running out of time ends the reading without error; what arrived stays delivered.
    /// - Returns: the head of the last connection, or `nil` when none answered.
    /// - Throws: what the source throws (a status or type that is no event stream, a connection
    ///   that could not be made again), or what `receive` throws.
    @discardableResult
    public func read(
        upTo count: Int? = nil, within: Duration?, _ receive: @escaping @Sendable (ServerSentEvent, Response?) throws -> Void
    ) async throws(SluiceError) -> Response? {
        let state = Locked<(head: Response?, timedOut: Bool)>((nil, false))
        let reader = Task { () throws -> Void in
            var iterator = makeAsyncIterator()
            var received = 0
            defer { state.withLock { $0.head = iterator.response ?? $0.head } }
            while let event = try await iterator.next() {
                do {
                    try receive(event, iterator.response)
                } catch {
                    throw SluiceError.wrapping(error, stage: "server-sent-events", url: request.url)
                }
                received += 1
                if let count, received >= count { return }
            }
        }
        let timer = within.map { within in
            Task {
                try await Task.sleep(for: within)
                state.withLock { $0.timedOut = true }
                reader.cancel()
            }
        }
        let result = await reader.result
        timer?.cancel()
        let (head, timedOut) = state.withLock { ($0.head, $0.timedOut) }
        if case .failure(let failure) = result {
            var error = SluiceError.wrapping(failure, stage: "server-sent-events", url: request.url)
            guard timedOut, error.kind == .cancelled else {
                error.response = error.response ?? head
                throw error
            }
        }
        return head
    }
}
