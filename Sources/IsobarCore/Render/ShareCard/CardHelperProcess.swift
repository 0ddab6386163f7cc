import CProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One card-drawing process: the same binary run as `isobar draw-cards`, fed one card at a
/// time over a pipe and answering each with its PNG or why it could not be drawn. Whatever
/// the drawing does — hang in a filter, abort in Pango — it does it in there: the build
/// stops it at its time limit, or sees it gone, and loses that card only.
///
/// The frames, both ways, are a fixed header and bytes. A request: width, height and the
/// SVG's length (three little-endian UInt32), then the SVG. An answer: a status byte (0 a
/// PNG, 1 a message), the length (UInt32), then the PNG or the message in UTF-8.
public final class CardHelperProcess {
    let pid: pid_t
    /// Past a time limit, or gone: not to be given another card.
    private(set) var broken = false
    private let input: Int32
    private let output: Int32

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Started as `isobar_process.h` says: a process group of its own (a Ctrl-C at the
    /// terminal is the build's to handle), nothing of the build's but two pipes, its
    /// stderr discarded (a library's complaint is the card's failure, said once by the build).
    static func start(_ executable: String) throws(CardRasterizer.Failure) -> CardHelperProcess {
        let arguments = [executable, "draw-cards", String(getpid())]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var input: Int32 = -1, output: Int32 = -1
        let pid = isobar_spawn_helper(executable, &argv, &input, &output)
        guard pid > 0 else {
            throw CardRasterizer.Failure(message: "the card helper \(executable) cannot be started (\(String(cString: strerror(errno))))")
        }
        return CardHelperProcess(pid: pid, input: input, output: output)
    }

    /// The card's PNG, drawn within `limit` seconds; past it, or when the process is gone,
    /// a failure, after which this helper must be stopped.
    func draw(svg: String, width: Int, height: Int, limit: TimeInterval) throws(CardRasterizer.Failure) -> Data {
        let deadline = Date().addingTimeInterval(limit)
        var request = Self.header([UInt32(width), UInt32(height)])
        let body = Array(svg.utf8)
        request += Self.header([UInt32(body.count)]) + body
        guard Self.write(request, to: input) else { throw ended() }
        guard let header = read(5, before: deadline, limit: limit) else { throw ended(after: deadline, limit: limit) }
        let length = Self.number(header[1..<5])
        guard let answer = read(length, before: deadline, limit: limit) else { throw ended(after: deadline, limit: limit) }
        guard header[0] == 0 else { throw CardRasterizer.Failure(message: String(decoding: answer, as: UTF8.self)) }
        return Data(answer)
    }

    /// Stopped at once (a hung or broken helper); its exit collected.
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        finish()
    }

    /// Its input closed, so it ends after the card it draws; its exit collected.
    func finish() {
        close(input)
        close(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// A frame's little-endian UInt32, read back.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func header(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }

    /// All of `bytes` to `descriptor`; false when its reader is gone.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            // A pipe whose reader died raises SIGPIPE, which the build ignores
            // (CardHelpers), so the write fails with EPIPE instead.
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// `count` bytes from the helper, or nil at its end or past the deadline.
    private func read(_ count: Int, before deadline: Date, limit: TimeInterval) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left * 1000 + 1, Double(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress! + got, count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    /// Why no answer came: the time limit, or the process's end (its signal or status).
    private func ended(after deadline: Date? = nil, limit: TimeInterval = 0) -> CardRasterizer.Failure {
        broken = true
        if let deadline, Date() >= deadline {
            return CardRasterizer.Failure(message: "drawing it took longer than \(Int(limit)) s, so it was stopped")
        }
        var status: Int32 = 0
        var collected = waitpid(pid, &status, WNOHANG)
        // The pipe closed as it died: give it a moment to be collectable.
        for _ in 0..<50 where collected == 0 {
            usleep(10_000)
            collected = waitpid(pid, &status, WNOHANG)
        }
        guard collected == pid else { return CardRasterizer.Failure(message: "the drawing process stopped answering") }
        let signal = status & 0x7f
        if signal != 0 {
            let name = String(cString: strsignal(signal))
            return CardRasterizer.Failure(message: "the drawing crashed (signal \(signal), \(name))")
        }
        return CardRasterizer.Failure(message: "the drawing process ended (status \((status >> 8) & 0xff))")
    }

    /// `isobar draw-cards PARENT`: draws each card asked for on stdin, answering on stdout,
    /// until stdin ends or the build (`parent`) does.
    public static func serve(parent: Int32) -> Int32 {
        guard isobar_die_with_parent(parent) == 0 else { return 1 }
        func readExactly(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress! + got, count - got) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                got += n
            }
            return bytes
        }
        while let header = readExactly(12) {
            let width = number(header[0..<4]), height = number(header[4..<8]), length = number(header[8..<12])
            guard let svg = readExactly(length) else { return 1 }
            let answer: (status: UInt8, bytes: [UInt8])
            do {
                answer = (0, Array(try CardRasterizer.png(svg: String(decoding: svg, as: UTF8.self), width: width, height: height)))
            } catch {
                answer = (1, Array(error.message.utf8))
            }
            var frame = [answer.status] + Self.header([UInt32(answer.bytes.count)])
            frame += answer.bytes
            guard write(frame, to: 1) else { return 1 }
        }
        return 0
    }
}
