import Glibc

/// This process's CPU time as the kernel counts it (`getrusage`).
enum ProcessCPU {
    /// User and system time of every thread so far, in seconds.
    static var seconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
