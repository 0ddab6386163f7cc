/// Decides, once per run, whether One Call 3.0 or the free 2.5 endpoints are used
/// (`openweather.api: auto`). The first city to need it probes One Call alone while the
/// others wait; if the key has no One Call subscription every city switches to the
/// free endpoints after that single failed call. It also remembers a rejected key, so
/// one 401 does not become a 401 per city.
public actor APIModeSwitch {
    public enum Mode: Sendable, Equatable {
        case oneCall
        case free
    }

    public enum Assignment: Sendable, Equatable {
        /// Use this mode.
        case use(Mode)
        /// Try One Call and report the outcome with `settle`.
        case probe
    }

    private enum State {
        case undecided
        case probing
        case decided(Mode)
    }

    private var state: State
    private var waiters: [CheckedContinuation<Void, Never>] = []
    public private(set) var keyRejection: IsobarError?
    private let announce: @Sendable (String) -> Void

    public init(api: OpenWeatherSettings.API, announce: @escaping @Sendable (String) -> Void) {
        switch api {
        case .auto: state = .undecided
        case .onecall3: state = .decided(.oneCall)
        case .free: state = .decided(.free)
        }
        self.announce = announce
    }

    public func assignment() async -> Assignment {
        while true {
            switch state {
            case .decided(let mode):
                return .use(mode)
            case .undecided:
                state = .probing
                return .probe
            case .probing:
                await withCheckedContinuation { waiters.append($0) }
            }
        }
    }

    /// The probe's outcome: a mode, or nil when it failed for another reason (then the
    /// next city probes again).
    public func settle(_ mode: Mode?) {
        if let mode {
            state = .decided(mode)
            if mode == .free {
                announce("openweather: the API key has no One Call 3.0 subscription; using the free 2.5 endpoints (5 days, 3-hourly) for every city")
            }
        } else {
            state = .undecided
        }
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }

    public var isProbing: Bool {
        if case .probing = state { return true }
        return false
    }

    public func rejectKey(_ error: IsobarError) {
        if keyRejection == nil { keyRejection = error }
    }
}
