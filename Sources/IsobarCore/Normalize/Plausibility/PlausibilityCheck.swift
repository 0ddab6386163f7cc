extension PlausibilityRules {
    /// Walks a parsed response and throws for the first number outside its range, with the
    /// JSON path of the value (as a `DecodingError`, so `DecodingFailure` words it like any
    /// other bad body: "hourly[3].temp: 1e+300 is not a plausible temperature …").
    func check(_ document: JSONValue) throws(DecodingError) {
        try check(document, name: nil, parent: nil)
    }

    private func check(_ value: JSONValue, name: String?, parent: String?) throws(DecodingError) {
        switch value {
        case .number(let number, _):
            guard let name, let range = range(of: name, in: parent), !range.contains(number) else { return }
            throw DecodingError.dataCorrupted(.init(
                codingPath: [],
                debugDescription: "\(PlausibleRange.number(number)) is not a plausible \(range.quantity) (expected \(range.expected))"))
        case .object(let members):
            for member in members {
                try JSONFields.nested(member.key) { () throws(DecodingError) in
                    try check(member.value, name: member.key, parent: name)
                }
            }
        case .array(let elements):
            // An element stands for its array's member: `temperature_2m[5]` is a temperature.
            for (index, element) in elements.enumerated() {
                try JSONFields.nested(index) { () throws(DecodingError) in
                    try check(element, name: name, parent: parent)
                }
            }
        case .null, .bool, .string:
            return
        }
    }
}
