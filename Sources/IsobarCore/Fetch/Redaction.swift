import Foundation

/// Keeps the API key out of everything a user or a log can see: messages, the report,
/// the cache. Any `appid=` value is masked, and so is the key wherever else it appears.
public struct Redaction: Sendable {
    public var secret: String?

    public init(secret: String?) {
        self.secret = secret
    }

    public func apply(_ text: String) -> String {
        var result = text.replacingOccurrences(of: #"appid=[^&\s"'<>]*"#, with: "appid=***", options: .regularExpression)
        if let secret, secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "***")
        }
        return result
    }
}
