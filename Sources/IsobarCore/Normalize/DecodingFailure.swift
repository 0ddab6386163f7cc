import Foundation

/// Turns a `DecodingError` into a sentence naming the JSON path, for messages such as
/// `onecall.json: hourly[3].temp is missing`.
enum DecodingFailure {
    /// A JSON body decoded and checked: its shape first (a missing or mistyped field is the
    /// more basic fault), then its plausible ranges, after `reshape` (a provider's own
    /// forms made canonical). A failure is `failure` of one phrase: "the response is HTML,
    /// not JSON", or "unexpected response: " and what is wrong where.
    static func checked<Body: Decodable>(_ type: Body.Type, from data: Data, rules: PlausibilityRules,
                                         reshape: (JSONValue) throws -> JSONValue = { $0 },
                                         failure: (String) -> IsobarError) throws -> Body {
        do {
            let tree = try reshape(JSONValueDecoder.tree(data))
            let body = try JSONValueDecoder.decode(Body.self, fromTree: tree)
            try rules.check(tree)
            return body
        } catch {
            throw failure(looksLikeHTML(data) ? "the response is HTML, not JSON" : "unexpected response: \(describe(error, data: data))")
        }
    }

    /// Whether a body is an HTML page (a proxy's or a captive portal's), not JSON.
    static func looksLikeHTML(_ data: Data) -> Bool {
        data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "<")
    }

    /// Where JSON syntax breaks, as JSONSerialization reports it ("… around line 3,
    /// column 17", or "around character 513" for nesting too deep); nil for good JSON.
    static func syntax(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            guard var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return "not valid JSON" }
            // People count lines, not bytes: "around character 33" → "at line 3, column 14".
            if let match = detail.firstMatch(of: /around character (\d+)/), let offset = Int(match.1) {
                let prefix = data.prefix(offset)
                let line = prefix.filter { $0 == 0x0A }.count + 1
                let column = prefix.count - (prefix.lastIndex(of: 0x0A).map { $0 - prefix.startIndex + 1 } ?? 0) + 1
                detail.replaceSubrange(match.range, with: "at line \(line), column \(column)")
            }
            detail = detail.replacing("is not representable in Swift", with: "is out of range")
            // Foundation quotes the offending token whole ("Number 1111…"): keep a window.
            return "not valid JSON: \(QuotedInput.shortened(detail, longestWord: 40))"
        }
    }

    static func describe(_ error: Error, data: Data? = nil) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let data, let syntax = syntax(data) {
            return syntax
        }
        func path(_ codingPath: [CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "unexpected content"
        }
    }
}
