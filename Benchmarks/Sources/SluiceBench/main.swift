import BenchKit

// Nothing instruments this process: the timed runs (throughput, chain time, download, resident
// memory) measure exactly what an application would run.
await SluiceBenchCommand.runFromCommandLine()
