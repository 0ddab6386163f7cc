import CCmark
import Foundation

/// CommonMark → HTML through libcmark, the reference implementation.
public enum Markdown {
    /// Raw HTML in templates is the theme's own markup, so it is passed through
    /// (`CMARK_OPT_UNSAFE`); values from data never reach cmark unescaped.
    public static func html(from markdown: String) -> String {
        let options = CMARK_OPT_UNSAFE
        let length = markdown.utf8.count
        guard let rendered = markdown.withCString({ cmark_markdown_to_html($0, length, options) }) else {
            return ""
        }
        // cmark returns malloc'd memory that the caller owns.
        defer { free(rendered) }
        return String(cString: rendered)
    }

    public static var libraryVersion: String { String(cString: cmark_version_string()) }
}
