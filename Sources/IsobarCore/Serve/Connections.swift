/// The preview's open connections, each a task: how many there are, and which one makes
/// way for a new one when there are `capacity`.
actor Connections {
    enum State {
        /// Reading a head: a client that sends nothing more holds only this.
        case waiting
        /// Being answered: done within the listener's timeout.
        case answering
        /// An open page's event stream: the page reconnects if it is closed.
        case streaming
    }

    private struct Entry {
        var task: Task<Void, Never>?
        var state = State.waiting
        var since = ContinuousClock.now
    }

    let capacity: Int
    private var entries: [Int: Entry] = [:]
    private var next = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Runs `work` (given the connection's number) in a task of its own, counted until it ends.
    func open(_ work: @escaping @Sendable (Int) async -> Void) {
        let id = next
        next += 1
        entries[id] = Entry()
        // Its end is counted after this returns: the actor runs one thing at a time.
        entries[id]?.task = Task {
            await work(id)
            self.ended(id)
        }
    }

    func mark(_ id: Int, _ state: State) {
        entries[id]?.state = state
        entries[id]?.since = .now
    }

    private func ended(_ id: Int) {
        entries[id] = nil
    }

    /// Returns when fewer than `capacity` are open: when full, the one waiting for a head
    /// longest, or else the oldest event stream, is closed; if every one is being answered,
    /// it waits for one to end.
    func makeRoom() async {
        while entries.count >= capacity, !Task.isCancelled {
            let victim = oldest(.waiting) ?? oldest(.streaming)
            if let victim {
                entries.removeValue(forKey: victim)?.task?.cancel()
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func oldest(_ state: State) -> Int? {
        entries.filter { $0.value.state == state }.min { $0.value.since < $1.value.since }?.key
    }

    /// Ends every connection and waits for them.
    func closeAll() async {
        let tasks = entries.values.compactMap(\.task)
        entries = [:]
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
