import Foundation
import Testing
@testable import IsobarCore

/// Isobar's Mustache dialect (Render/Template/): the cases of the Mustache spec that
/// themes rely on — interpolation, sections, inverted sections, partials, comments,
/// delimiters, standalone lines — and the errors for what the dialect leaves out.
@Suite struct TemplateEngineTests {
    /// A model made of a dictionary, so each case can say its data inline.
    struct Values: TemplateContext {
        var values: [String: TemplateValue]
        init(_ values: [String: TemplateValue]) { self.values = values }
        func value(for key: TemplateKey) -> TemplateValue { values[key.text] ?? .missing }
    }

    func render(_ template: String, _ values: [String: TemplateValue] = [:], partials: [String: String] = [:]) throws -> String {
        var templates = ["main": try TemplateParser.parse(template)]
        for (name, text) in partials { templates[name] = try TemplateParser.parse(text) }
        return try #require(try TemplateRenderer(templates: templates).render("main", .object(Values(values))))
    }

    func syntaxError(_ template: String) -> TemplateSyntaxError? {
        do {
            _ = try TemplateParser.parse(template)
            return nil
        } catch {
            return error
        }
    }

    @Test func interpolation() throws {
        let values: [String: TemplateValue] = ["name": .text("<b>&\"'"), "count": .number(3), "on": .bool(true)]
        #expect(try render("{{name}}|{{{name}}}|{{& name }}|{{count}}|{{on}}|{{nothing}}", values)
            == "&lt;b&gt;&amp;&quot;&#39;|<b>&\"'|<b>&\"'|3|true|")
        // Markdown's own characters are escaped too, so data never becomes emphasis or a link.
        #expect(try render("{{x}}", ["x": .text("*a* [b](c) `d` #e")]) == "&#42;a&#42; &#91;b&#93;(c) &#96;d&#96; &#35;e")
    }

    /// A rendered body (the layout's `content`) is copied as it is by a triple mustache and
    /// escaped as text by a double one; in an indented standalone partial only its first
    /// line takes the indentation, as for any value (its own line breaks are not shifted).
    @Test func renderedMarkup() throws {
        let body: [String: TemplateValue] = ["content": .html("<p>a & b</p>\n<p>c</p>")]
        #expect(try render("{{{content}}}|{{content}}", body) == "<p>a & b</p>\n<p>c</p>|&lt;p&gt;a &amp; b&lt;/p&gt;&#10;&lt;p&gt;c&lt;/p&gt;")
        #expect(try render("<main>\n  {{> body}}\n</main>", body, partials: ["body": "{{{content}}}\n"])
            == "<main>\n  <p>a & b</p>\n<p>c</p>\n</main>")
        #expect(try render("{{#content}}[{{{.}}}]{{/content}}", body) == "[<p>a & b</p>\n<p>c</p>]")
    }

    @Test func htmlTemplatesEscapeForHTMLOnly() throws {
        let nodes = try TemplateParser.parse("<p title=\"{{x}}\">{{x}}</p>", escaping: .html)
        let rendered = try TemplateRenderer(templates: ["main": nodes]).render("main", .object(Values(["x": .text("*a* [b](c) \"<q>\" #1")])))
        #expect(rendered == "<p title=\"*a* [b](c) &quot;&lt;q&gt;&quot; #1\">*a* [b](c) &quot;&lt;q&gt;&quot; #1</p>")
    }

    @Test func dottedNamesAndTheContextStack() throws {
        let inner = Values(["b": .object(Values(["c": .text("deep")])), "shadow": .text("inner")])
        let values: [String: TemplateValue] = ["a": .object(inner), "shadow": .text("outer"), "top": .text("T")]
        #expect(try render("{{a.b.c}}", values) == "deep")
        #expect(try render("{{a.x.c}}", values) == "")
        // Inside a section the innermost context wins; a name it lacks is found further out.
        #expect(try render("{{#a}}{{shadow}} {{top}}{{/a}} {{shadow}}", values) == "inner T outer")
        // A dotted name is resolved from its first part only: `a.top` does not fall back outwards.
        #expect(try render("{{#a}}[{{a.top}}]{{/a}}", values) == "[]")
        // A name the context does not have is looked for further out…
        let card = Values(["note": .missing])
        #expect(try render("{{#card}}{{note}}{{/card}}", ["card": .object(card), "note": .text("page")]) == "page")
        // …but one it has without a value (an absent optional) is nothing, and false.
        let normals = Values(["source": .absent, "text": .text("Normal")])
        let page: [String: TemplateValue] = ["normals": .object(normals), "source": .text("OpenWeather")]
        #expect(try render("{{#normals}}{{text}}[{{source}}]{{#source}}({{.}}){{/source}}{{^source}}-{{/source}}{{/normals}}", page) == "Normal[]-")
        #expect(try render("{{normals.source}}|{{#normals.source}}x{{/normals.source}}", page) == "|")
    }

    @Test func sections() throws {
        let values: [String: TemplateValue] = [
            "items": .list([.text("a"), .text("b")]), "none": .list([]), "yes": .bool(true), "no": .bool(false),
            "word": .text(""), "zero": .number(0), "thing": .object(Values(["x": .text("X")])),
        ]
        #expect(try render("{{#items}}<{{.}}>{{/items}}", values) == "<a><b>")
        #expect(try render("{{#none}}x{{/none}}{{^none}}empty{{/none}}", values) == "empty")
        #expect(try render("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}n{{/no}}{{^yes}}y{{/yes}}", values) == "Yn")
        #expect(try render("{{#missing}}M{{/missing}}{{^missing}}m{{/missing}}", values) == "m")
        // Text (even empty), numbers (even 0) and objects are present: the section renders with them.
        #expect(try render("{{#word}}[{{.}}]{{/word}}{{#zero}}[{{.}}]{{/zero}}{{#thing}}{{x}}{{/thing}}", values) == "[][0]X")
        #expect(try render("{{^word}}w{{/word}}{{^zero}}z{{/zero}}{{^thing}}t{{/thing}}", values) == "")
        #expect(try render("{{#items}}{{#yes}}{{.}}{{/yes}}{{/items}}", values) == "ab")
        // A section skipped, or rendered, with sections inside it: what follows it comes
        // next either way (the flat program jumps over a section's children).
        #expect(try render("{{#no}}a{{#yes}}b{{/yes}}c{{/no}}d{{#yes}}e{{#items}}{{.}}{{^yes}}!{{/yes}}{{/items}}f{{/yes}}g", values) == "deabfg")
    }

    @Test func standaloneTagsTakeTheirLineWithThem() throws {
        let values: [String: TemplateValue] = ["items": .list([.text("a"), .text("b")])]
        #expect(try render("# List\n{{#items}}\n- {{.}}\n{{/items}}\nend\n", values) == "# List\n- a\n- b\nend\n")
        #expect(try render("  {{#items}}  \n- {{.}}\n  {{/items}}\t\nend", values) == "- a\n- b\nend")
        #expect(try render("a\r\n{{#items}}\r\n{{.}}\r\n{{/items}}\r\nz", values) == "a\r\na\r\nb\r\nz")
        #expect(try render("{{! a comment }}\nText\n  {{! another\n spanning lines }}\nmore", values) == "Text\nmore")
        // Standalone at the end without a newline, and at the start.
        #expect(try render("x\n{{#items}}{{.}}{{/items}}\n{{! c }}", values) == "x\nab\n")
        // Not standalone: other text or a second tag on the line keeps everything.
        #expect(try render("- {{#items}}{{.}}{{/items}} -\n", values) == "- ab -\n")
        #expect(try render(" {{! c }} x\n") == "  x\n")
        #expect(try render("{{#items}}{{/items}}\nz", values) == "\nz")
    }

    @Test func partials() throws {
        let values: [String: TemplateValue] = ["name": .text("Rome"), "items": .list([.text("a")])]
        #expect(try render("{{> partials/head}}\nbody", values, partials: ["partials/head": "## {{name}}\n"]) == "## Rome\nbody")
        #expect(try render("[{{>inline}}]", values, partials: ["inline": "{{name}}"]) == "[Rome]")
        // An indented standalone partial indents every line of its template.
        #expect(try render("<ul>\n  {{> item}}\n</ul>\n", values, partials: ["item": "<li>\n{{name}}\n</li>\n"])
            == "<ul>\n  <li>\n  Rome\n  </li>\n</ul>\n")
        // …but not the lines of a value it interpolates (spec: partials, "Standalone Indentation").
        #expect(try render("\\\n {{>partial}}\n/\n", ["content": .text("<\n->")], partials: ["partial": "|\n{{{content}}}\n|\n"])
            == "\\\n |\n <\n->\n |\n/\n")
        // A standalone partial inside an indented one takes both indentations.
        #expect(try render("  {{> outer}}\n", values, partials: ["outer": "a\n  {{> inner}}\nb\n", "inner": "{{name}}\nx\n"])
            == "  a\n    Rome\n    x\n  b\n")
        // The spec's rule for a partial that does not exist: it renders as nothing.
        #expect(try render("a{{> nowhere}}b") == "ab")
        // A partial may include itself while data lasts (the innermost `node` is false: an
        // absent one would be found again further out).
        let leaf = Values(["n": .text("2"), "node": .bool(false)])
        let tree: [String: TemplateValue] = ["node": .object(Values(["n": .text("1"), "node": .object(leaf)]))]
        #expect(try render("{{> walk}}", tree, partials: ["walk": "{{#node}}{{n}}{{> walk}}{{/node}}"]) == "12")
    }

    @Test func endlessPartialRecursionIsAnErrorNotACrash() throws {
        #expect(throws: TemplateRenderer.TooDeep.self) {
            _ = try render("{{> loop}}", partials: ["loop": "x{{> loop}}"])
        }
    }

    @Test func setDelimiters() throws {
        #expect(try render("{{=<% %>=}}\n<% name %> {{name}} <%={{ }}=%>{{name}}", ["name": .text("N")]) == "N {{name}} N")
        #expect(syntaxError("{{= <% =}}")?.message.contains("set-delimiter") == true)
    }

    @Test func syntaxErrorsSayWhatAndWhere() throws {
        let unclosed = try #require(syntaxError("a\n{{#items}}\nb\n"))
        #expect(unclosed.message.contains("missing {{/items}}"))
        #expect(unclosed.offset == 2)
        let mismatched = try #require(syntaxError("{{#a}}x{{/b}}"))
        #expect(mismatched.message.contains("does not match the open section {{#a}}"))
        #expect(mismatched.offset == 10)
        #expect(syntaxError("x{{/a}}")?.message.contains("not open") == true)
        #expect(syntaxError("{{name")?.message.contains("unfinished tag") == true)
        #expect(syntaxError("{{{name}}")?.message.contains("unfinished tag") == true)
        #expect(syntaxError("{{upper(name)}}")?.message.contains("transforms") == true)
        #expect(syntaxError("{{<base}}{{/base}}")?.message.contains("inheritance") == true)
        #expect(syntaxError("{{>*dynamic}}")?.message.contains("dynamic partial names") == true)
        #expect(syntaxError("{{% CONTENT_TYPE: TEXT }}")?.message.contains("pragmas") == true)
        #expect(syntaxError("{{}}")?.message.contains("without a name") == true)
        #expect(syntaxError("{{a b}}")?.message.contains("unexpected character") == true)
        #expect(syntaxError("{{a..b}}")?.message.contains("empty part") == true)
    }

    @Test func syntaxErrorPositionsCountCharactersNotBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try folder.write("Straße\n° {{#a}}\n", to: "city.md").path
        do {
            _ = try TemplateSet.parse("Straße\n° {{#a}}\n", file: file)
            Issue.record("parsed an unclosed section")
        } catch let error as IsobarError {
            #expect(error.location?.line == 2)
            #expect(error.location?.column == 3)
            #expect(error.description.contains(" 2 | ° {{#a}}"))
        }
    }
}
