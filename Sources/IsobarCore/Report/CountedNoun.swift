/// A count with its noun in the form English takes for it ("1 place", "5 places"), by
/// CLDR's plural rules through ICU, as the pages' counts are: the CLI speaks English.
func counted(_ count: Int, _ one: String, _ other: String) -> String {
    "\(count) \(PluralRules.shared(language: "en").category(Double(count)) == "one" ? one : other)"
}
