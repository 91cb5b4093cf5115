import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// One machine's part of a load run spread over several (`--shard I/N`), as k6's execution
/// segments split one test.
///
/// The run is described once, in full, on every machine; each shard takes every N-th request of
/// it, starting with request I (counting from 0). Requests of the open loop's schedule, and the
/// closed loop's repetitions, are numbered the same on every machine, so the shards together send
/// exactly the requests one machine would have, their counts within one of each other.
/// `--concurrency` is split the same way. Requests go round the selected ones in order, so when
/// the numbers of shards and of selected requests share a factor (2 shards, 4 requests) each shard
/// sends only some of the requests: the whole run's mix is right, each shard's is not, which
/// matters only when one machine's figures are read alone.
public struct LoadShard: Sendable, Hashable, CustomStringConvertible {
    /// This shard's number, from 0.
    public var index: Int
    /// How many shards the run has.
    public var count: Int

    /// The most shards a run may have.
    public static let maximumCount = 10_000

    /// The whole run: shard 0 of 1.
    public static let whole = LoadShard(index: 0, count: 1)!

    /// Shard `index` of `count`; `nil` unless `0 ≤ index < count ≤ maximumCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`, as Slurm's `$SLURM_PROCID/$SLURM_NTASKS` and Kubernetes'
    /// `$JOB_COMPLETION_INDEX` give it: `0/4` is the first of four.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let index = Int(parts[0]), let count = Int(parts[1])
        else { return nil }
        self.init(index: index, count: count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether request `number` of the whole run is this shard's.
    public func owns(_ number: Int) -> Bool {
        number % count == index
    }

    /// How many of the whole run's first `total` requests are this shard's.
    public func share(of total: Int) -> Int {
        total / count + (index < total % count ? 1 : 0)
    }
}
