import Foundation
import Synchronization
import Testing

@testable import SluiceCore

@Suite("The bounded buffer between a transfer and the reader of its body")
struct ResponseBodyChannelTests {
    /// Counts what the channel asks of its transfer.
    final class ProducerLog: Sendable {
        let resumes = Atomic<Int>(0)
        let cancels = Atomic<Int>(0)

        var producer: ResponseBodyChannel.Producer {
            ResponseBodyChannel.Producer(
                resume: { self.resumes.add(1, ordering: .relaxed) },
                cancel: { self.cancels.add(1, ordering: .relaxed) }
            )
        }
    }

    private func offer(_ channel: ResponseBodyChannel, _ count: Int) -> Bool {
        Data(repeating: 7, count: count).withUnsafeBytes { channel.offer($0) }
    }

    @Test("a reader cancelled while waiting cancels the transfer yet still gets every piece that arrived before, then .cancelled")
    func cancelledReaderKeepsWhatArrived() async throws {
        let channel = ResponseBodyChannel(capacity: 1 << 20)
        let log = ProducerLog()
        channel.attach(log.producer)
        let reader = Task {
            var received = 0
            do throws(SluiceError) {
                while let piece = try await channel.next(url: nil) { received += piece.count }
                return (received, SluiceError.Kind?.none)
            } catch {
                return (received, .some(error.kind))
            }
        }
        // The reader may be waiting or not yet started: either way the pieces offered before
        // the cancel are its to read.
        #expect(offer(channel, 4096))
        #expect(offer(channel, 4096))
        reader.cancel()
        let (received, failure) = await reader.value
        #expect(received == 8192 && failure == .cancelled)
        #expect(log.cancels.load(ordering: .relaxed) == 1)
        let late = ProducerLog()
        channel.attach(late.producer)
        #expect(late.cancels.load(ordering: .relaxed) == 1, "a transfer attached after the cancel is cancelled at once")
    }

    @Test("offers past the capacity are refused (the transfer pauses); draining to half resumes it once; pieces keep their order")
    func pausesAndResumes() async throws {
        let channel = ResponseBodyChannel(capacity: 4096)
        let log = ProducerLog()
        channel.attach(log.producer)
        #expect(offer(channel, 1024))
        #expect(offer(channel, 1024))
        #expect(offer(channel, 1024))
        #expect(offer(channel, 1024))
        #expect(!offer(channel, 1024))
        #expect(!offer(channel, 1024))
        #expect(channel.pauses == 2)
        _ = try await channel.next(url: nil)
        #expect(log.resumes.load(ordering: .relaxed) == 0)
        _ = try await channel.next(url: nil)
        #expect(log.resumes.load(ordering: .relaxed) == 1)
        _ = try await channel.next(url: nil)
        #expect(log.resumes.load(ordering: .relaxed) == 1)
        #expect(offer(channel, 10))
        channel.finish(.success(nil))
        #expect(try await channel.next(url: nil)?.count == 1024)
        #expect(try await channel.next(url: nil)?.count == 10)
        #expect(try await channel.next(url: nil) == nil)
        #expect(channel.received == 4106)
    }

    @Test("the transfer's error reaches the reader after the pieces before it")
    func errorAfterPieces() async throws {
        let channel = ResponseBodyChannel(capacity: 100)
        #expect(offer(channel, 5))
        channel.finish(.failure(SluiceError(kind: .connectionLost, message: "reset")))
        #expect(try await channel.next(url: nil)?.count == 5)
        let error = await #expect(throws: SluiceError.self) { _ = try await channel.next(url: nil) }
        #expect(error?.kind == .connectionLost)
    }

    @Test("a reader waiting for a piece wakes when it comes")
    func waitsForAPiece() async throws {
        let channel = ResponseBodyChannel(capacity: 100)
        let reader = Task { try await channel.next(url: nil) }
        try await Task.sleep(for: .milliseconds(20))
        #expect(offer(channel, 3))
        #expect(try await reader.value?.count == 3)
    }

    @Test("abandoning cancels the transfer once, drops what is buffered, and later offers are swallowed")
    func abandon() async throws {
        let channel = ResponseBodyChannel(capacity: 100)
        let log = ProducerLog()
        channel.attach(log.producer)
        #expect(offer(channel, 50))
        channel.abandon(url: nil)
        channel.abandon(url: nil)
        #expect(log.cancels.load(ordering: .relaxed) == 1)
        #expect(offer(channel, 500))
        let error = await #expect(throws: SluiceError.self) { _ = try await channel.next(url: nil) }
        #expect(error?.kind == .cancelled)
    }

    @Test("a body that ended is not cancelled when its reader goes; one abandoned before its transfer attached is cancelled at once")
    func abandonAfterEndAndBeforeAttach() {
        let ended = ResponseBodyChannel(capacity: 100)
        let log = ProducerLog()
        ended.attach(log.producer)
        ended.finish(.success(nil))
        ended.abandon(url: nil)
        #expect(log.cancels.load(ordering: .relaxed) == 0)

        let early = ResponseBodyChannel(capacity: 100)
        early.abandon(url: nil)
        let late = ProducerLog()
        early.attach(late.producer)
        #expect(late.cancels.load(ordering: .relaxed) == 1)
    }

    @Test("a cancelled reading task ends with .cancelled and cancels the transfer")
    func cancelledReader() async throws {
        let channel = ResponseBodyChannel(capacity: 100)
        let log = ProducerLog()
        channel.attach(log.producer)
        let reader = Task { try await channel.next(url: nil) }
        try await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        let error = await #expect(throws: SluiceError.self) { _ = try await reader.value }
        #expect(error?.kind == .cancelled)
        #expect(log.cancels.load(ordering: .relaxed) == 1)
    }
}

@Suite("Streamed bodies through the in-memory transport")
struct InMemoryStreamingTests {
    @Test("a streamed request gets its body as a stream, as over the network; response decoding checks the head only")
    func streamedThroughStages() async throws {
        let transport = InMemoryTransport { request in
            Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8), url: request.url)
        }
        let manager = SessionManager(pipeline: try Pipeline(stages: [ResponseDecoding()], transport: transport))
        let response = try await manager.stream(Request(url: URL(string: "http://memory.test/")!))
        #expect(response.body.isEmpty)
        #expect(response.decoded == nil)
        #expect(try await response.bodyStream?.collect(upTo: 100) == Data(#"{"a":1}"#.utf8))
    }
}
