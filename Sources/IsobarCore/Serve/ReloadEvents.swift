import FlyingFox
import FlyingSocks
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

    /// The response body of one page's stream.
    func body(current build: Int) -> HTTPBodySequence {
        let (id, events) = subscribe(current: build)
        return HTTPBodySequence(from: EventBytes(events: events, subscription: Subscription(id: id, events: self)))
    }

    /// Unsubscribes when the connection drops its body (the page went away, or the
    /// server stopped): a stream's continuation alone would keep it listed for ever.
    final class Subscription: Sendable {
        let id: UUID
        let events: ReloadEvents

        init(id: UUID, events: ReloadEvents) {
            self.id = id
            self.events = events
        }

        deinit {
            Task { [events, id] in await events.remove(id) }
        }
    }

    /// The events as bytes, each sent as soon as it comes (FlyingFox writes one chunk per
    /// buffer this returns, and the chunked encoding needs no length up front).
    struct EventBytes: AsyncBufferedSequence, Sendable {
        typealias Element = UInt8
        let events: AsyncStream<String>
        let subscription: Subscription

        func makeAsyncIterator() -> Iterator {
            Iterator(events: events.makeAsyncIterator(), subscription: subscription)
        }

        struct Iterator: AsyncBufferedIteratorProtocol {
            var events: AsyncStream<String>.Iterator
            let subscription: Subscription
            var pending: [UInt8] = []

            mutating func next() async throws -> UInt8? {
                try await nextBuffer(suggested: 1)?.first
            }

            mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
                if pending.isEmpty {
                    guard let event = await events.next() else { return nil }
                    pending = Array(event.utf8)
                }
                let taken = Array(pending.prefix(Swift.max(1, count)))
                pending.removeFirst(taken.count)
                return taken
            }
        }
    }
}
