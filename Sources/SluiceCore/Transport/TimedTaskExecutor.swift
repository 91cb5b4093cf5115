/// A task executor that keeps time itself: a task that prefers it can wait for an instant and be
/// resumed on the executor's own thread, with no other thread woken.
///
/// `Task.sleep` keeps its timers on the global concurrent executor: when one fires, a thread of
/// that executor wakes only to hand the task back to the executor it prefers, two thread switches
/// for every wait. An event loop already sleeps until its next event; it can take the next timer as
/// one more. The libcurl transport's I/O threads are such executors (its article shows one in
/// use): a load run's open loop paces its schedule on them, so a tick of the schedule wakes one
/// thread, once.
public protocol TimedTaskExecutor: TaskExecutor {
    /// Returns at `deadline` or a little after (as the executor's timer fires: a `timerfd` for
    /// libcurl's I/O threads), at once when the calling task is or becomes cancelled. The task
    /// resumes on this executor when it prefers it.
    func sleep(until deadline: ContinuousClock.Instant) async
}
