// The names `card.svg` may use, declared once (see TemplateField.swift); `isobar fields card`
// prints them.

extension ShareCardModel: TemplateModel {
    static let fields = TemplateFields<Self>("ShareCard", "The share image (`card.svg`, rasterised to `<slug>/card.png`, 1200×630).", [
        .init("t", \.t, "The UI strings in the page's language; keys from Templates/i18n/en.yml"),
        .init("site", \.site, "The site's title", example: "Isobar Weather"),
        .init("name", \.name, "City name", example: "London"),
        .init("country", \.country, "ISO country code", example: "GB"),
        .init("language", \.language, "The page's language, for xml:lang (it picks Japanese or Chinese glyphs)", example: "en"),
        .init("direction", \.direction, "`ltr`, or `rtl` for Arabic, Hebrew, Persian…, for the text's direction", example: "ltr"),
        .init("icon", \.icon, "The condition icon's SVG markup (a 64×64 <svg> from Public/icons/), placed with {{{icon}}} in a <g transform>; absent where the data has no condition code"),
        .init("temperature", \.temperature, "Temperature, with its unit", example: "9 °C"),
        .init("description", \.description, "The main condition", example: "Light rain"),
        .init("high", \.high, "Today's high", example: "11 °C"),
        .init("low", \.low, "Today's low", example: "6 °C"),
        .init("hasHighLow", \.hasHighLow, "Whether both are known", example: "true"),
        .init("updated", \.updated, "Local time of the data", example: "14:20"),
        .init("alt", \.alt, "The card in words (the page's og:image:alt)", example: "London: 9 °C · Light rain · High 11 °C · Low 6 °C"),
    ])
}
