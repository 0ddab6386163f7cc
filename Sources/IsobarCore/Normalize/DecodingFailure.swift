import Foundation

/// Turns a `DecodingError` into a sentence naming the JSON path, for messages such as
/// `onecall.json: hourly[3].temp is missing`.
enum DecodingFailure {
    /// Where JSON syntax breaks, as JSONSerialization reports it ("… around line 3,
    /// column 17", or "around character 513" for nesting too deep); nil for good JSON.
    static func syntax(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return detail.map { "not valid JSON: \($0)" } ?? "not valid JSON"
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
