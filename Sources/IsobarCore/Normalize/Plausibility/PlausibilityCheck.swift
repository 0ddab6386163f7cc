extension PlausibilityRules {
    /// Walks a parsed response and throws for the first number outside its range, with the
    /// JSON path of the value (as a `DecodingError`, so `DecodingFailure` words it like any
    /// other bad body: "hourly[3].temp: 1e+300 is not a plausible temperature …").
    func check(_ document: JSONValue) throws(DecodingError) {
        var shape = Shape()
        try check(document, name: nil, parent: nil, shape: &shape)
    }

    /// What the walk has looked up so far under one place of the document, by member
    /// position: a list's elements (`hourly`, `minutely`, `daily`) carry the same members in
    /// the same order, so each name is looked up once per body rather than once per element
    /// (the lookups were most of checking a One Call body, 5 % of a build). A position whose
    /// name differs from the one remembered is looked up again and its subtree forgotten.
    ///
    /// Only a range's bounds are kept: they are all a number is checked against, and they
    /// are copied without reference counting (the range's words, two strings, were retained
    /// and released for each number of a body). A message looks the range up again.
    private struct Shape {
        var names: [String] = []
        var bounds: [ClosedRange<Double>?] = []
        var children: [Shape] = []
        /// The bounds of the numbers of an array at this place, once one was met.
        var elements: ClosedRange<Double>?? = nil

        /// Makes `position` stand for the member `name` of an object named `parent`. An
        /// object's members are remembered in order, so a new position is the next one.
        mutating func remember(_ position: Int, _ name: String, in parent: String?, _ rules: PlausibilityRules) {
            if position < names.count {
                guard names[position] != name else { return }
                (names[position], bounds[position], children[position]) = (name, rules.range(of: name, in: parent)?.bounds, Shape())
            } else {
                names.append(name)
                bounds.append(rules.range(of: name, in: parent)?.bounds)
                children.append(Shape())
            }
        }
    }

    /// `shape`: what was looked up at this place in the document (shared by every element
    /// of an array, which all have the array's name and parent).
    private func check(_ value: JSONValue, name: String?, parent: String?, shape: inout Shape) throws(DecodingError) {
        switch value {
        case .number(let number, _):
            guard let name else { return }
            if shape.elements == nil { shape.elements = .some(range(of: name, in: parent)?.bounds) }
            if let bounds = shape.elements!, !bounds.contains(number) { throw implausible(number, name, in: parent) }
        case .object(let members):
            for (position, member) in members.enumerated() {
                shape.remember(position, member.key, in: name, self)
                try JSONFields.nested(member.key) { () throws(DecodingError) in
                    if case .number(let number, _) = member.value {
                        if let bounds = shape.bounds[position], !bounds.contains(number) { throw implausible(number, member.key, in: name) }
                    } else {
                        try check(member.value, name: member.key, parent: name, shape: &shape.children[position])
                    }
                }
            }
        case .array(let elements):
            // An element stands for its array's member: `temperature_2m[5]` is a temperature.
            for (index, element) in elements.enumerated() {
                try JSONFields.nested(index) { () throws(DecodingError) in
                    try check(element, name: name, parent: parent, shape: &shape)
                }
            }
        case .null, .bool, .string:
            return
        }
    }

    /// `number`, the member `name` of an object named `parent`, is outside its range.
    private func implausible(_ number: Double, _ name: String, in parent: String?) -> DecodingError {
        // The bounds that refused it came from this range.
        guard let range = range(of: name, in: parent) else { preconditionFailure("no range for \(name)") }
        return DecodingError.dataCorrupted(.init(
            codingPath: [],
            debugDescription: "\(PlausibleRange.number(number)) is not a plausible \(range.quantity) (expected \(range.expected))"))
    }
}
