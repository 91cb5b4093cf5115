import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

@Suite("Load schedules: rates, ramps, shards, plans")
struct LoadScheduleTests {
    @Test("--rate reads R or FROM:TO, positive and at most a million; anything else is refused")
    func parsing() {
        #expect(LoadRate("200") == LoadRate(from: 200))
        #expect(LoadRate("0.5") == LoadRate(from: 0.5))
        #expect(LoadRate("100:2000") == LoadRate(from: 100, to: 2000))
        #expect(LoadRate("0:50") == LoadRate(from: 0, to: 50))
        #expect(LoadRate("50:0") == LoadRate(from: 50, to: 0))
        for bad in ["", "0", "0:0", "-5", "1e3", "nan", "inf", "1:2:3", ":5", "5:", "١٠٠", "1000001", "100 ", " 100", "10/s"] {
            #expect(LoadRate(bad) == nil, "\(bad)")
        }
        #expect(LoadRate(from: 100, to: 2000).description == "100→2000/s")
        #expect(LoadRate(from: 2.5).description == "2.5/s")
        // A shard's share of 10/s over three shards: three decimals at most.
        #expect(LoadRate(from: 10.0 / 3).description == "3.333/s" && LoadRate(from: 0.1 + 0.2).description == "0.3/s")
    }

    @Test("a steady rate is due every 1/R seconds; a ramp's k-th request is due when the area under the rate reaches k")
    func dueTimes() {
        let steady = LoadRate(from: 200)
        #expect(steady.dueTime(of: 0, duration: nil) == 0)
        #expect(steady.dueTime(of: 1, duration: nil) == 0.005)
        #expect(steady.dueTime(of: 600, duration: 3) == 3)
        #expect(steady.arrivals(in: 3) == 600)

        for (from, to, duration) in [(100.0, 2000.0, 60.0), (0, 50, 2), (50, 0, 2), (1000, 1001, 10), (10, 20, 0.5)] {
            let ramp = LoadRate(from: from, to: to)
            let total = ramp.arrivals(in: duration)
            #expect(total == Int(((from + to) / 2 * duration).rounded(.up)))
            var previous = -1.0
            for k in stride(from: 0, to: total, by: max(1, total / 500)) {
                let t = ramp.dueTime(of: k, duration: duration)
                // The area under the rate up to t is k, to within rounding.
                let area = from * t + (to - from) * t * t / (2 * duration)
                #expect(abs(area - Double(k)) < 1e-6 * max(1, Double(k)), "ramp \(from):\(to) k \(k) t \(t) area \(area)")
                #expect(t > previous && t <= duration + 1e-9)
                previous = t
            }
        }
        // Every request due before the end is sent: the area rounded up, a whole area as it is.
        let counts: [(Double, Double, Int)] = [(2.5, 1.0, 3), (3.5, 1, 4), (10, 0.25, 3), (10, 0.45, 5), (0.5, 1, 1), (5.5, 1, 6), (0.1, 30, 3), (200, 3, 600), (1.0 / 3, 3, 1)]
        for (rate, duration, expected) in counts {
            let steady = LoadRate(from: rate)
            #expect(steady.arrivals(in: duration) == expected, "\(rate)/s for \(duration) s")
            #expect(steady.dueTime(of: expected - 1, duration: duration) < duration && steady.dueTime(of: expected, duration: duration) >= duration - 1e-9)
        }
        #expect(LoadRate(from: 5, to: 0).arrivals(in: 1) == 3 && LoadRate(from: 1, to: 0).arrivals(in: 1) == 1)
        // A ramp's rate halfway is halfway between its ends.
        #expect(LoadRate(from: 100, to: 300).rate(at: 30, duration: 60) == 200)
    }

    @Test("shards split the numbers 0..<total exactly: disjoint, together everything, shares within one of each other")
    func shards() {
        for count in 1...7 {
            for total in [0, 1, 5, 6, 100, 1001] {
                var owners = [Int](repeating: 0, count: total)
                var shares: [Int] = []
                for index in 0..<count {
                    let shard = LoadShard(index: index, count: count)!
                    for number in 0..<total where shard.owns(number) { owners[number] += 1 }
                    shares.append(shard.share(of: total))
                    #expect(shard.share(of: total) == (0..<total).filter(shard.owns).count)
                }
                #expect(owners.allSatisfy { $0 == 1 })
                #expect(shares.reduce(0, +) == total)
                #expect(shares.max()! - shares.min()! <= 1)
            }
        }
        #expect(LoadShard("0/4") == LoadShard(index: 0, count: 4))
        #expect(LoadShard("3/4") == LoadShard(index: 3, count: 4))
        #expect(LoadShard("9999/10000") != nil)
        for bad in ["4/4", "-1/4", "1/0", "0", "0/", "/4", "a/4", "1/4/2", "０/4", "0/9999999999", "0/10001", " 0/4"] {
            #expect(LoadShard(bad) == nil, "\(bad)")
        }
    }

    @Test("a plan says what is missing or impossible, in the command line's words")
    func plans() {
        #expect(LoadPlan(repetitions: 5, concurrency: 2).problem == nil)
        #expect(LoadPlan(concurrency: 2).problem == "load mode needs --repeat or --duration")
        #expect(LoadPlan(rate: LoadRate(from: 5), concurrency: 2).problem == "--rate needs --duration or --repeat (how long, or how many)")
        #expect(LoadPlan(repetitions: 5, rate: LoadRate(from: 5, to: 10)).problem?.contains("needs --duration") == true)
        #expect(LoadPlan(repetitions: 5, concurrency: 2, shard: LoadShard("0/4")!).problem?.contains("cannot be split over 4 shards") == true)
        #expect(LoadPlan(duration: .zero).problem == "--duration must be more than 0")
        // The whole run's count: repetitions, the schedule within the duration, or the fewer.
        #expect(LoadPlan(repetitions: 10).totalRequests(requestCount: 3) == 30)
        #expect(LoadPlan(duration: .seconds(2), rate: LoadRate(from: 50)).totalRequests(requestCount: 3) == 100)
        #expect(LoadPlan(repetitions: 10, duration: .seconds(2), rate: LoadRate(from: 50)).totalRequests(requestCount: 3) == 30)
        #expect(LoadPlan(duration: .seconds(2)).totalRequests(requestCount: 3) == nil)
        // The planned end the grace period counts from: the duration, the schedule, or none.
        #expect(LoadPlan(duration: .seconds(2)).plannedSeconds(requestCount: 3) == 2)
        #expect(LoadPlan(repetitions: 10, rate: LoadRate(from: 50)).plannedSeconds(requestCount: 3) == 0.6)
        #expect(LoadPlan(repetitions: 10, duration: .seconds(2), rate: LoadRate(from: 50)).plannedSeconds(requestCount: 3) == 0.6)
        #expect(LoadPlan(repetitions: 10).plannedSeconds(requestCount: 3) == nil)
        var negative = LoadPlan(duration: .seconds(1))
        negative.gracePeriod = .seconds(-1)
        #expect(negative.problem == "--grace-period must be 0 or more")
        // Concurrency is split like the requests: 10 over 4 shards is 3, 3, 2, 2.
        #expect((0..<4).map { LoadPlan(concurrency: 10, shard: LoadShard(index: $0, count: 4)!).shardConcurrency } == [3, 3, 2, 2])
    }
}
