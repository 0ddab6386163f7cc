import Foundation

/// Turns a `DecodingError` into a sentence naming the JSON path, for messages such as
/// `onecall.json: hourly[3].temp is missing`.
enum DecodingFailure {
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
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
