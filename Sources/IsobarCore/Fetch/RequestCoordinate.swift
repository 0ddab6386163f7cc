/// A latitude or longitude as services that key their answers by the point asked for
/// want it: at most four decimals (about 11 m; MET Norway refuses more, NWS redirects) and
/// no trailing zeros: 59.9127, 10.75, 5.
enum RequestCoordinate {
    static func text(_ value: Double) -> String {
        var text = FixedPoint.format(value, digits: 4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
