// The climate normals' names (`normals`, and each day's `normal`), declared once (see
// TemplateField.swift); examples are from the demo's London page with its sample normals.

extension CityPageModel.Normals: TemplateModel {
    static let fields = TemplateFields<Self>("Normals", "Today against the 1991–2020 climate normals.", [
        .init("comparison", \.comparison, "Today's high against the normal high, in words (\"about normal\" within ±1°)", example: "2° warmer than normal for 25 November"),
        .init("trend", \.trend, "`warmer`, `colder` or `normal`, to style by", example: "warmer"),
        .init("difference", \.difference, "The difference, unsigned; absent when about normal", example: "2°"),
        .init("high", \.high, "Today's normal high", example: "10°"),
        .init("low", \.low, "Today's normal low", example: "4°"),
        .init("text", \.text, "Both, in words", example: "Normal 10° / 4°"),
        .init("source", \.source, "Where the normals come from: the config's `normals.source`, or the archive's", example: "ERA5 1991–2020, Open-Meteo"),
    ])
}

extension CityPageModel.DayNormal: TemplateModel {
    static let fields = TemplateFields<Self>("DayNormal", "A forecast day's climate normal.", [
        .init("high", \.high, "The day's normal high", example: "10°"),
        .init("low", \.low, "The day's normal low", example: "4°"),
        .init("text", \.text, "Both, in words", example: "Normal 10° / 4°"),
    ])
}
