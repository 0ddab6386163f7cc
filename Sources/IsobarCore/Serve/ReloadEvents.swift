import Foundation

/// The event streams of the open pages: each is told the current build number when it
/// connects and again after every build, success or failure (`ReloadScript`).
actor ReloadEvents {
    private var listeners: [UUID: AsyncStream<String>.Continuation] = [:]

    /// How long a browser waits before reconnecting to a server that went away, in ms.
    static let retry = 500

    /// A new page's stream, which starts with the build it should show.
    func subscribe(current build: Int) -> (id: UUID, events: AsyncStream<String>) {
        // A stalled page keeps the newest few events only; it needs just the last one.
        let (events, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        listeners[id] = continuation
        continuation.yield("retry: \(Self.retry)\n" + Self.event(build))
        return (id, events)
    }

    func announce(build: Int) {
        for listener in listeners.values { listener.yield(Self.event(build)) }
    }

    /// A comment line: writing it is how a page that went away is noticed, and its
    /// connection closed, when no build happens for a while.
    func heartbeat() {
        for listener in listeners.values { listener.yield(": still here\n\n") }
    }

    func remove(_ id: UUID) {
        listeners.removeValue(forKey: id)?.finish()
    }

    /// Ends every stream, so the server can stop without waiting for open pages.
    func closeAll() {
        for listener in listeners.values { listener.finish() }
        listeners = [:]
    }

    var count: Int { listeners.count }

    static func event(_ build: Int) -> String { "data: \(build)\n\n" }
}
