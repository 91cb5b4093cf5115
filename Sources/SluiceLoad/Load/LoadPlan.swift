import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner

/// What a load run is asked to do: how requests are paced, how many, for how long, how many in
/// flight, and which shard of a larger run this process is.
///
/// - A **closed loop** (no rate): `concurrency` workers each send a request as soon as their last
///   one is answered, as `wrk` and k6's constant-VUs executor do. A slow server makes it send
///   less, so a stall shows in few samples.
/// - An **open loop** (a rate): requests are sent on a schedule whatever the responses do, as
///   `wrk2` and k6's arrival-rate executors do, with `concurrency` as the cap on requests in
///   flight. A request due when the cap is reached is dropped and counted, never sent late.
///   Latency is measured from when each request was due.
public struct LoadPlan: Sendable, Hashable {
    /// How many times each selected request is sent, in the whole run; `nil` for as many as the
    /// duration (or the rate) allows.
    public var repetitions: Int?
    /// How long the run lasts; `nil` until every repetition is sent.
    public var duration: Duration?
    /// The arrival rate of the whole run; `nil` for a closed loop.
    public var rate: LoadRate?
    /// How many requests are in flight at most, in the whole run.
    public var concurrency: Int
    /// This process's part of the run.
    public var shard: LoadShard
    /// When the run starts, on the wall clock: shards given the same time send together. `nil`
    /// starts at once.
    public var startAt: Date?
    /// How long requests still in flight when a run of known length ends (its duration, or the
    /// open loop's schedule) may take to finish, as k6's `gracefulStop`; those still in flight
    /// then are cancelled and counted as errors of kind `interrupted`. 30 seconds, as k6's.
    public var gracePeriod: Duration = .seconds(30)

    /// A plan; see each property.
    public init(repetitions: Int? = nil, duration: Duration? = nil, rate: LoadRate? = nil, concurrency: Int = 1, shard: LoadShard = .whole, startAt: Date? = nil) {
        self.repetitions = repetitions
        self.duration = duration
        self.rate = rate
        self.concurrency = concurrency
        self.shard = shard
        self.startAt = startAt
    }

    /// What is wrong with the plan, said as a command-line user reads it, or `nil`.
    public var problem: String? {
        if let repetitions, repetitions < 1 { return "--repeat must be 1 or more" }
        if let duration, duration <= .zero { return "--duration must be more than 0" }
        if repetitions == nil && duration == nil {
            return rate == nil ? "load mode needs --repeat or --duration" : "--rate needs --duration or --repeat (how long, or how many)"
        }
        if let rate, rate.isRamp, duration == nil { return "a ramping --rate (\(rate)) needs --duration: the time the ramp takes" }
        if concurrency < 1 { return "--concurrency must be 1 or more" }
        if gracePeriod < .zero { return "--grace-period must be 0 or more" }
        if concurrency < shard.count {
            return "--concurrency \(concurrency) cannot be split over \(shard.count) shards: each shard needs at least one request in flight"
        }
        return nil
    }

    /// The number of requests in flight at most in this shard: its share of `concurrency`.
    public var shardConcurrency: Int { shard.share(of: concurrency) }

    /// Whether requests are sent on a schedule.
    public var isOpenLoop: Bool { rate != nil }

    /// What the run sends, in the command line's words: `--repeat N`, `--duration D`, and the
    /// selection (`--only`, `--tag`, `--skip-tag`), which every shard of one run gives alike.
    func extent(selection: RequestSelection) -> String {
        var words: [String] = []
        if let repetitions { words.append("--repeat \(repetitions)") }
        if let duration { words.append("--duration \(DurationText.string(duration))") }
        words += selection.only.map { "--only \($0)" } + selection.tags.map { "--tag \($0)" } + selection.skipTags.map { "--skip-tag \($0)" }
        return words.joined(separator: " ")
    }

    /// The duration in seconds, if there is one.
    var seconds: Double? { duration.map { DurationText.milliseconds($0) / 1000 } }

    /// When the run is due to end, in seconds from its start, for `requestCount` selected
    /// requests: the closed loop's duration, the open loop's schedule (up to when the request
    /// after its last would be due); `nil` for a closed loop that only `repetitions` bounds.
    public func plannedSeconds(requestCount: Int) -> Double? {
        guard let rate else { return seconds }
        guard let total = totalRequests(requestCount: requestCount) else { return nil }
        return rate.dueTime(of: total, duration: seconds)
    }

    /// How many requests the whole run sends at most, for `requestCount` selected requests:
    /// the repetitions, the schedule's arrivals within the duration, whichever is fewer; `nil`
    /// when only the duration bounds a closed loop.
    public func totalRequests(requestCount: Int) -> Int? {
        let repeated = repetitions.map { $0 * requestCount }
        guard let rate, let seconds else { return repeated }
        let scheduled = rate.arrivals(in: seconds)
        return repeated.map { min($0, scheduled) } ?? scheduled
    }
}
