/// Messages quote at most a short window of what they complain about: a 30 MB number or
/// key in a response must not make stderr and the report 30 MB long (issue 12, item 9).
enum QuotedInput {
    /// `text` with every run of non-space characters longer than `longestWord` cut to its
    /// first characters and a count ("1111111111111111…(3000000 characters)"), and the
    /// whole cut to `limit` characters. Ordinary messages, file paths included, pass
    /// unchanged.
    static func shortened(_ text: String, longestWord: Int = 256, limit: Int = 4_000) -> String {
        guard text.utf8.count > longestWord else { return text }
        var result = ""
        var word = Substring()
        var count = 0
        func flush() {
            if count > longestWord {
                result += word.prefix(24) + "…(\(count) characters)"
            } else {
                result += word
            }
        }
        var start = text.startIndex
        for index in text.indices {
            if text[index].isWhitespace {
                word = text[start..<index]
                flush()
                result.append(text[index])
                start = text.index(after: index)
                count = 0
            } else {
                count += 1
            }
        }
        word = text[start...]
        flush()
        return result.count > limit ? result.prefix(limit) + "…" : result
    }
}
