/// A CAP severity as pages show it: the word in the page's language (`severity_<class>` in
/// the theme's strings) and the class name the theme colours it by.
extension AlertSeverity {
    var className: String { rawValue.lowercased() }

    func label(_ strings: Strings) -> String { strings["severity_\(className)"] }
}
