import CCmark
import Foundation

/// CommonMark → HTML through libcmark, the reference implementation.
public enum Markdown {
    /// Raw HTML in templates is the theme's own markup, so it is passed through
    /// (`CMARK_OPT_UNSAFE`); values from data never reach cmark unescaped.
    public static func html(from markdown: String) -> String {
        html(from: Array(markdown.utf8)).text
    }

    /// Markdown as the template renderer writes it, UTF-8.
    static func html(from markdown: [UInt8]) -> RenderedHTML {
        let rendered = markdown.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_markdown_to_html($0.baseAddress, $0.count, CMARK_OPT_UNSAFE) }
        }
        guard let rendered else { return RenderedHTML(utf8: []) }
        // cmark returns malloc'd memory that the caller owns.
        defer { free(rendered) }
        return RenderedHTML(utf8: Array(UnsafeRawBufferPointer(start: rendered, count: strlen(rendered))))
    }

    public static var libraryVersion: String { String(cString: cmark_version_string()) }
}
