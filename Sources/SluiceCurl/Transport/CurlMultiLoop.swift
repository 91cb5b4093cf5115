internal import CCurl
import Foundation
import Synchronization
import SluiceCore

/// One libcurl multi handle driven by one I/O thread, which is also a task executor.
///
/// Other threads never touch the multi handle: they post commands to a locked inbox and wake the
/// thread with `curl_multi_wakeup` (only when the inbox was empty, so a burst of commands costs one
/// wake-up). The thread drains the inbox, runs `curl_multi_perform`, finishes the transfers libcurl
/// reports done, and sleeps in `curl_multi_poll` until a socket or a wake-up needs it.
///
/// As a `TaskExecutor`, the loop runs the jobs of Swift tasks that prefer it on the I/O thread,
/// between two turns of libcurl. A task that prefers the loop sends a request, and has its
/// response handed back, without leaving the thread: what the thread posts to itself goes to a
/// queue of its own, with no lock and no wake-up, and a finished transfer resumes its task on the
/// same thread. So an exchange costs no thread switch at all, where a task on another executor
/// costs two (to the I/O thread and back). The price is the one of every event loop: a job that
/// blocks holds up every transfer of the loop.
///
/// Stopping: `.stop` closes the inbox, so nothing posted later is accepted and no later wake-up
/// happens. Wake-ups are made under the inbox lock, and the thread passes through that lock after
/// it has seen `.stop` and before it frees the multi handle, so no wake-up can reach a freed handle.
/// The thread then runs the jobs its shutdown woke (each transfer it ended resumes a task); jobs
/// that arrive after the thread has ended run on the global concurrent executor.
///
/// Timers: a task that sleeps on the loop (``sleep(until:)``) is resumed by the thread itself. The
/// first deadline is set on a `timerfd` that `curl_multi_poll` waits on beside the sockets (its own
/// timeout counts whole milliseconds; the timer counts nanoseconds), so a task that prefers the
/// loop waits and wakes with no other thread involved.
final class CurlMultiLoop: TimedTaskExecutor, @unchecked Sendable {
    /// What other threads ask of the I/O thread.
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case pause(CurlTransfer)
        case unpause(CurlTransfer)
        /// The reader of a streamed body caught up: receive again.
        case resumeReceiving(CurlTransfer)
        /// The producer of a streamed upload has bytes (or its end) ready: send again.
        case resumeSending(CurlTransfer)
        /// Runs a job of a task that prefers this loop.
        case run(UnownedJob)
        /// Resumes a sleeping task at its deadline.
        case sleep(Timer)
        /// Resumes a sleeping task whose Swift task was cancelled, now.
        case wake(Timer)
        /// Ends every transfer, closes every connection, stops the thread, then resumes the
        /// continuation if there is one.
        case stop(CheckedContinuation<Void, Never>?)
    }

    private struct Inbox {
        var commands: [Command] = []
        var closed = false
    }

    /// The most commands the thread takes from its own queue before it turns libcurl again, so a
    /// task that keeps posting jobs cannot starve the sockets.
    private static let commandsPerTurn = 1024

    /// A task sleeping on the loop until `deadline`.
    final class Timer: Sendable {
        let deadline: ContinuousClock.Instant
        /// Set by the sleeping task before the timer is posted, resumed on the I/O thread.
        nonisolated(unsafe) var continuation: UnsafeContinuation<Void, Never>?
        /// Set when the sleeping task is cancelled, from any thread.
        let cancelled = Atomic<Bool>(false)

        init(deadline: ContinuousClock.Instant) {
            self.deadline = deadline
        }

        /// Resumes the sleeping task; once only, as only the I/O thread (or its shutdown) calls it.
        func fire() {
            continuation?.resume()
            continuation = nil
        }
    }

    /// The loops of one transport: what tells a transport its own loops from another's.
    final class Group: Sendable {}

    /// The transport's loops this one belongs to.
    let group: Group
    /// Idle easy handles, shared with the threads that configure transfers.
    let pool: CurlEasyPool
    /// The header lists of the latest transfers, shared with the threads that configure them.
    let headerLists = CurlHeaderLists()
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    /// The I/O thread's `pthread_t` while it runs, 0 before and after.
    private let ioThread = Atomic<UInt>(0)

    /// What the I/O thread posted to itself, taken before the inbox's next commands. I/O thread only.
    private var ownCommands: [Command] = []
    /// The commands a turn has run, held while they leave ``ownCommands`` and released after:
    /// releasing one may run code (a task resumed) that posts to ``ownCommands``, which must not
    /// happen while `removeFirst` is mutating it. Its capacity is kept. I/O thread only.
    private var ranCommands: [Command] = []
    /// Set once the thread has seen `.stop`. I/O thread only.
    private var stopping = false
    /// Sleeping tasks, the earliest deadline first. I/O thread only.
    private var timers: [Timer] = []
    /// The `timerfd` set to the first timer's deadline; -1 when the system gave none, and the
    /// wait then ends at the millisecond after the deadline.
    private let timerFD: Int32
    /// The deadline ``timerFD`` is set to, until the thread has seen it pass. I/O thread only.
    private var armedDeadline: ContinuousClock.Instant?
    /// The transfers libcurl is moving, by easy handle. I/O thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// One connection cache (a libcurl share object) per trust policy in use. I/O thread only.
    private var connectionCaches: [TrustPolicy: UnsafeMutableRawPointer] = [:]

    init(configuration: CurlTransport.Configuration, group: Group) throws(SluiceError) {
        try CurlGlobal.initialize()
        guard let multi = curl_multi_init() else {
            throw SluiceError(kind: .transport, stage: "transport", message: "curl_multi_init failed")
        }
        self.multi = multi
        self.group = group
        timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        pool = CurlEasyPool(capacity: configuration.idleHandleCapacity)
        _ = sluice_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = sluice_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        _ = sluice_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConnections)
        _ = sluice_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxIdleConnections)
    }

    /// Starts the I/O thread; it runs until `.stop`.
    func start(name: String) {
        let thread = Thread { [self] in
            CurlMultiLoop.nameCurrentThread(name)
            run()
        }
        thread.name = name
        thread.start()
    }

    /// Gives the calling thread `name` (at most 15 bytes) where `top -H`, `perf` and gdb read it:
    /// Foundation's `Thread.name` does not reach the system on Linux, and `pthread_setname_np`
    /// is not visible to Swift. A thread whose name cannot be set keeps the one it has.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Whether the caller runs on the I/O thread.
    private var onIOThread: Bool {
        ioThread.load(ordering: .relaxed) == pthread_self()
    }

    /// Posts a command to the I/O thread; returns `false`, posting nothing, once the loop was
    /// stopped. Any thread; from the I/O thread itself it takes no lock and wakes nothing.
    @discardableResult
    func enqueue(_ command: Command) -> Bool {
        if onIOThread {
            guard !stopping else { return false }
            if case .stop = command {
                // Closed under the lock all the same, so that no other thread wakes a freed handle.
                inbox.withLock { $0.closed = true }
            }
            ownCommands.append(command)
            return true
        }
        return inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            if case .stop = command { inbox.closed = true }
            inbox.commands.append(command)
            if inbox.commands.count == 1 {
                curl_multi_wakeup(multi)
            }
            return true
        }
    }

    /// Runs `job` on the I/O thread; on the global concurrent executor once the loop has stopped.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if onIOThread {
            // Even while stopping: the thread runs the jobs its shutdown woke before it ends.
            ownCommands.append(.run(job))
        } else if !enqueue(.run(job)) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Sleeps until `deadline` on this loop's thread: the thread resumes the task when its timer
    /// fires (within the next millisecond when the system gave no `timerfd`), or at once when the
    /// task is cancelled or the loop has stopped.
    func sleep(until deadline: ContinuousClock.Instant) async {
        let timer = Timer(deadline: deadline)
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                timer.continuation = continuation
                if !enqueue(.sleep(timer)) { timer.fire() }
            }
        } onCancel: {
            timer.cancelled.store(true, ordering: .releasing)
            // A loop that has stopped resumed every timer, or resumes this one as it is posted.
            enqueue(.wake(timer))
        }
    }

    // MARK: The I/O thread

    /// Removes the first `count` commands, which have run, releasing them only once
    /// ``ownCommands`` is no longer being changed.
    private func retireOwnCommands(_ count: Int) {
        ranCommands.append(contentsOf: ownCommands[..<count])
        ownCommands.removeFirst(count)
        ranCommands.removeAll(keepingCapacity: true)
    }

    private func run() {
        ioThread.store(pthread_self(), ordering: .relaxed)
        var running: Int32 = 0
        while true {
            inbox.withLock { inbox in
                ownCommands.append(contentsOf: inbox.commands)
                inbox.commands.removeAll(keepingCapacity: true)
            }
            // Commands may post more (a job starts a transfer): those run in this turn too, up to
            // a bound, so a request a job makes goes out in the `curl_multi_perform` that follows.
            var taken = 0
            while taken < ownCommands.count, taken < CurlMultiLoop.commandsPerTurn {
                let command = ownCommands[taken]
                taken += 1
                if case .stop(let stopped) = command {
                    retireOwnCommands(taken)
                    shutDown()
                    stopped?.resume()
                    return
                }
                apply(command)
            }
            retireOwnCommands(taken)
            curl_multi_perform(multi, &running)
            finishDoneTransfers()
            fireDueTimers()
            if ownCommands.isEmpty {
                waitForEvents()
            }
        }
    }

    private func apply(_ command: Command) {
        switch command {
        case .start(let transfer):
            guard !transfer.isCancelRequested else {
                transfer.abort(with: .cancelled(url: transfer.request.url, stage: "transport"))
                return
            }
            if let policy = transfer.governingTrustPolicy {
                guard let share = connectionCache(for: policy) else {
                    transfer.abort(with: SluiceError(
                        kind: .transport, stage: "transport", url: transfer.request.url,
                        message: "libcurl could not make a connection cache for the task's trust policy"
                    ))
                    return
                }
                _ = sluice_easy_setopt_pointer(transfer.easy.raw, CURLOPT_SHARE, share)
            }
            let code = curl_multi_add_handle(multi, transfer.easy.raw)
            guard code == CURLM_OK else {
                transfer.abort(with: SluiceError(
                    kind: .transport, stage: "transport", url: transfer.request.url,
                    message: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code)))"
                ))
                return
            }
            active[transfer.easy.raw] = transfer
        case .cancel(let transfer):
            // Easy handles are pooled: a late command for a finished transfer must not reach the
            // transfer that now uses its handle. Hence the identity check here and below.
            guard isActive(transfer), let transfer = detach(transfer.easy.raw) else { return }
            transfer.abort(with: .cancelled(url: transfer.request.url, stage: "transport"))
        case .pause(let transfer):
            changePause(of: transfer, .taskSuspended(true))
        case .unpause(let transfer):
            changePause(of: transfer, .taskSuspended(false))
        case .resumeReceiving(let transfer):
            changePause(of: transfer, .receiveResumed)
        case .resumeSending(let transfer):
            changePause(of: transfer, .sendResumed)
        case .run(let job):
            job.runSynchronously(on: asUnownedTaskExecutor())
        case .sleep(let timer):
            if timer.cancelled.load(ordering: .acquiring) || timer.deadline <= .now {
                timer.fire()
            } else {
                let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
                timers.insert(timer, at: index)
            }
        case .wake(let timer):
            // Not there: it fired, or its `.sleep` comes later and finds it cancelled.
            guard let index = timers.firstIndex(where: { $0 === timer }) else { return }
            timers.remove(at: index).fire()
        case .stop:
            break
        }
    }

    /// Resumes the tasks whose deadline has come.
    private func fireDueTimers() {
        guard let first = timers.first, first.deadline <= .now else { return }
        let now = ContinuousClock.now
        let due = timers.prefix { $0.deadline <= now }.count
        let fired = timers[..<due]
        timers.removeFirst(due)
        for timer in fired { timer.fire() }
    }

    /// Sleeps in `curl_multi_poll` until a socket, a wake-up or the first timer needs the thread,
    /// a second at most.
    private func waitForEvents() {
        guard let deadline = timers.first?.deadline else {
            curl_multi_poll(multi, nil, 0, 1000, nil)
            return
        }
        let left = deadline - .now
        guard left > .zero else { return }
        let (seconds, attoseconds) = left.components
        guard timerFD >= 0 else {
            // Rounded up, so that the timer is due when the thread wakes.
            let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            curl_multi_poll(multi, nil, 0, Int32(min(milliseconds, 1000)), nil)
            return
        }
        if armedDeadline != deadline {
            var setting = itimerspec()
            setting.it_value.tv_sec = Int(seconds)
            // At least a nanosecond: a zero setting disarms the timer.
            setting.it_value.tv_nsec = max(Int(attoseconds / 1_000_000_000), seconds == 0 ? 1 : 0)
            timerfd_settime(timerFD, 0, &setting, nil)
            armedDeadline = deadline
        }
        var timer = curl_waitfd(fd: timerFD, events: Int16(CURL_WAIT_POLLIN), revents: 0)
        curl_multi_poll(multi, &timer, 1, 1000, nil)
        if deadline <= .now {
            // Read, so that the expired timer does not end every wait after this one; set again
            // for the next deadline.
            var expirations: UInt64 = 0
            _ = read(timerFD, &expirations, MemoryLayout<UInt64>.size)
            armedDeadline = nil
        }
    }

    /// Applies a change to what pauses a transfer. libcurl may call the transfer's callbacks
    /// from inside `curl_easy_pause` (the bytes it held back), and they may pause it again.
    private func changePause(of transfer: CurlTransfer, _ change: CurlTransfer.State.PauseChange) {
        guard isActive(transfer) else { return }
        curl_easy_pause(transfer.easy.raw, transfer.pauseMask(after: change))
    }

    private func finishDoneTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = sluice_message_result(message)
            detach(easy)?.complete(code: code)
        }
    }

    /// The connection cache of one trust policy, made on first use. Connections made under a
    /// policy are reused only by tasks under the same policy; requests without one use the multi
    /// handle's own cache.
    private func connectionCache(for policy: TrustPolicy) -> UnsafeMutableRawPointer? {
        if let share = connectionCaches[policy] { return share }
        guard let share = sluice_share_connections() else { return nil }
        connectionCaches[policy] = share
        return share
    }

    /// Whether this very transfer, not another on the same pooled handle, is under way.
    private func isActive(_ transfer: CurlTransfer) -> Bool {
        active[transfer.easy.raw] === transfer
    }

    /// Takes a transfer out of the multi handle and the active table.
    @discardableResult
    private func detach(_ easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        guard let transfer = active.removeValue(forKey: easy) else { return nil }
        curl_multi_remove_handle(multi, easy)
        return transfer
    }

    /// Ends every transfer under way with `.cancelled`, frees the policies' connection caches and
    /// the multi handle, which closes every connection, then runs what is left: the jobs of the
    /// tasks those endings resumed, and what they post in turn (a new transfer is refused with
    /// `.invalidated`). Nothing more reaches the inbox: `.stop` closed it and is its last command,
    /// and the drain that found `.stop` came after the poster's wake-up returned.
    private func shutDown() {
        stopping = true
        for easy in Array(active.keys) {
            guard let transfer = detach(easy) else { continue }
            transfer.abort(with: SluiceError(
                kind: .cancelled, stage: "transport", url: transfer.request.url, message: "the transport was shut down"
            ))
        }
        for timer in timers {
            timer.fire()
        }
        timers = []
        for share in connectionCaches.values {
            curl_share_cleanup(share)
        }
        connectionCaches = [:]
        curl_multi_cleanup(multi)
        if timerFD >= 0 { close(timerFD) }
        inbox.withLock { inbox in
            ownCommands.append(contentsOf: inbox.commands)
            inbox.commands = []
        }
        while !ownCommands.isEmpty {
            switch ownCommands.removeFirst() {
            case .run(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .start(let transfer):
                transfer.abort(with: SluiceError(
                    kind: .invalidated, stage: "transport", url: transfer.request.url, message: "the transport was shut down"
                ))
            case .stop(let stopped):
                stopped?.resume()
            case .sleep(let timer):
                timer.fire()
            case .cancel, .pause, .unpause, .resumeReceiving, .resumeSending, .wake:
                break
            }
        }
        ioThread.store(0, ordering: .relaxed)
    }
}
