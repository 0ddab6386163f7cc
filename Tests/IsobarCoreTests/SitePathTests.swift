import Testing
@testable import IsobarCore

/// The rule every path of the site's passes before a write, a delete or an upload.
@Suite struct SitePathTests {
    @Test func plainPathsAreSplitIntoTheirNames() {
        #expect(SitePath.names("index.html") == ["index.html"])
        #expect(SitePath.names("city-00001/forecast.json") == ["city-00001", "forecast.json"])
        #expect(SitePath.names("he/תל-אביב/index.html") == ["he", "תל-אביב", "index.html"])
        #expect(SitePath.names("assets/caf\u{E9}%20menu.svg") == ["assets", "caf\u{E9}%20menu.svg"])
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("/etc/passwd", "it is absolute"),
        ("a//b", "it has an empty name (`//` or a `/` at the end)"),
        ("a/", "it has an empty name (`//` or a `/` at the end)"),
        ("a/../b", "it has a `..` name"),
        ("./a", "it has a `.` name"),
        ("a/b\nc", "it has a control character"),
        ("a/b\u{85}c", "it has a control character"),
        ("a\\b", "it has a backslash"),
        ("a/%2e%2e/b", "it has a `..` name once percent-decoded"),
        ("a%2fb", "a name in it encodes a `/`"),
        (String(repeating: "n", count: 256), "a name in it is longer than 255 bytes"),
        (Array(repeating: "abcdefgh", count: 114).joined(separator: "/"), "it is longer than 1024 bytes"),
    ])
    func whatIsWrongIsSaid(_ path: String, _ problem: String) {
        #expect(SitePath.problem(path) == problem)
        #expect(SitePath.names(path) == nil)
    }

    /// A `/` followed by a combining mark is one character with it: the path is still split
    /// there, as the file system splits it, so `..` behind such a `/` is seen.
    @Test func aSlashIsASlashWhateverFollowsIt() {
        #expect(SitePath.names("a/\u{301}b") == ["a", "\u{301}b"])
        #expect(SitePath.problem("a/\u{301}/../b") == "it has a `..` name")
        #expect(SitePath.problem("../\u{301}x") == "it has a `..` name")
    }
}
