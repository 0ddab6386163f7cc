import ArgumentParser
import IsobarCore

struct Fields: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every name a template may use: its type, what it is and an example.",
        discussion: "PAGE is one of \(FieldReference.pageNames.joined(separator: ", ")); without it, every page. The same list is docs/templates.md.")

    @Argument(help: "city, index, 404 or layout (default: all).")
    var page: String?

    @Flag(name: .long, help: "Print the reference as Markdown (docs/templates.md).")
    var markdown = false

    func validate() throws {
        if let page, !FieldReference.pageNames.contains(page) {
            throw ValidationError("no page \"\(page)\": choose one of \(FieldReference.pageNames.joined(separator: ", "))")
        }
        if markdown && page != nil { throw ValidationError("--markdown prints every page; leave out \(page!)") }
    }

    func run() throws {
        if markdown {
            print(FieldReference.markdown(), terminator: "")
            return
        }
        let pages = page.map { [$0] } ?? FieldReference.pageNames
        print(pages.compactMap(FieldReference.text(page:)).joined(separator: "\n"), terminator: "")
    }
}
