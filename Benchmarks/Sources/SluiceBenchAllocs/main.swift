import BenchKit
import MallocInterposerSwift

// malloc-interposer replaces `malloc` and `free` in this whole process (a header on every block,
// a counter on every call), so this binary only counts: its times and resident sizes are not
// what an application would see, and `scripts/bench` reads neither from it.
AllocationCounter.install(AllocationCounter(
    start: {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
    },
    stop: {
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return AllocationCounter.Counts(
            allocations: statistics.mallocCount,
            liveAllocations: statistics.mallocCount - statistics.freeCount,
            liveBytes: statistics.mallocBytesCount - statistics.freeBytesCount
        )
    }
))
await SluiceBenchCommand.runFromCommandLine()
