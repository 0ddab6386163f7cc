import Mustache

// Mustache finds a template's values by name. By default swift-mustache looks names up
// through `Mirror`, which profiling showed to be the largest cost of a build; these
// tables give each page model a direct lookup instead. `MustacheModelTests` checks that
// every table lists exactly the model's stored properties.

/// A page model whose values templates reach by name through a key-path table.
protocol KeyPathMustacheParent: MustacheParent {
    static var mustacheFields: [String: PartialKeyPath<Self> & Sendable] { get }
}

extension KeyPathMustacheParent {
    public func child(named name: String) -> Any? {
        guard let path = Self.mustacheFields[name] else { return nil }
        let value = self[keyPath: path]
        // An absent optional must read as "no value", not as a boxed `nil`.
        if let optional = value as? OptionalValue { return optional.wrappedValue }
        return value
    }
}

/// Lets `child(named:)` see through an `Optional` boxed in `Any`.
protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedValue: Any? {
        switch self {
        case .some(let value): return value
        case .none: return nil
        }
    }
}

extension CityPageModel.Icon: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Icon> & Sendable] = [
        "src": \CityPageModel.Icon.src,
        "alt": \CityPageModel.Icon.alt,
    ]
}

extension CityPageModel.Wind: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Wind> & Sendable] = [
        "speed": \CityPageModel.Wind.speed,
        "gust": \CityPageModel.Wind.gust,
        "direction": \CityPageModel.Wind.direction,
        "arrowRotation": \CityPageModel.Wind.arrowRotation,
        "beaufort": \CityPageModel.Wind.beaufort,
        "beaufortForce": \CityPageModel.Wind.beaufortForce,
        "animationPeriod": \CityPageModel.Wind.animationPeriod,
    ]
}

extension CityPageModel.Now: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Now> & Sendable] = [
        "icon": \CityPageModel.Now.icon,
        "temperature": \CityPageModel.Now.temperature,
        "feelsLike": \CityPageModel.Now.feelsLike,
        "description": \CityPageModel.Now.description,
        "otherConditions": \CityPageModel.Now.otherConditions,
        "high": \CityPageModel.Now.high,
        "low": \CityPageModel.Now.low,
        "wind": \CityPageModel.Now.wind,
        "humidity": \CityPageModel.Now.humidity,
        "dewPoint": \CityPageModel.Now.dewPoint,
        "pressure": \CityPageModel.Now.pressure,
        "visibility": \CityPageModel.Now.visibility,
        "cloudCover": \CityPageModel.Now.cloudCover,
        "rainLastHour": \CityPageModel.Now.rainLastHour,
        "snowLastHour": \CityPageModel.Now.snowLastHour,
        "uvIndex": \CityPageModel.Now.uvIndex,
        "uvCategory": \CityPageModel.Now.uvCategory,
        "sunrise": \CityPageModel.Now.sunrise,
        "sunset": \CityPageModel.Now.sunset,
        "dayLength": \CityPageModel.Now.dayLength,
        "moonPhase": \CityPageModel.Now.moonPhase,
    ]
}

extension CityPageModel.AirQualityModel.Pollutant: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.AirQualityModel.Pollutant> & Sendable] = [
        "name": \CityPageModel.AirQualityModel.Pollutant.name,
        "value": \CityPageModel.AirQualityModel.Pollutant.value,
    ]
}

extension CityPageModel.AirQualityModel: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.AirQualityModel> & Sendable] = [
        "index": \CityPageModel.AirQualityModel.index,
        "category": \CityPageModel.AirQualityModel.category,
        "pollutants": \CityPageModel.AirQualityModel.pollutants,
    ]
}

extension CityPageModel.Alert: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Alert> & Sendable] = [
        "event": \CityPageModel.Alert.event,
        "sender": \CityPageModel.Alert.sender,
        "start": \CityPageModel.Alert.start,
        "startDateTime": \CityPageModel.Alert.startDateTime,
        "end": \CityPageModel.Alert.end,
        "endDateTime": \CityPageModel.Alert.endDateTime,
        "description": \CityPageModel.Alert.description,
    ]
}

extension CityPageModel.Hour: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Hour> & Sendable] = [
        "time": \CityPageModel.Hour.time,
        "datetime": \CityPageModel.Hour.datetime,
        "icon": \CityPageModel.Hour.icon,
        "temperature": \CityPageModel.Hour.temperature,
        "precipitationChance": \CityPageModel.Hour.precipitationChance,
        "precipitationKind": \CityPageModel.Hour.precipitationKind,
        "wind": \CityPageModel.Hour.wind,
    ]
}

extension CityPageModel.Day: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Day> & Sendable] = [
        "weekday": \CityPageModel.Day.weekday,
        "date": \CityPageModel.Day.date,
        "datetime": \CityPageModel.Day.datetime,
        "icon": \CityPageModel.Day.icon,
        "low": \CityPageModel.Day.low,
        "high": \CityPageModel.Day.high,
        "rangeStart": \CityPageModel.Day.rangeStart,
        "rangeWidth": \CityPageModel.Day.rangeWidth,
        "precipitationChance": \CityPageModel.Day.precipitationChance,
        "precipitationKind": \CityPageModel.Day.precipitationKind,
        "summary": \CityPageModel.Day.summary,
    ]
}

extension CityPageModel.PlaceModel: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.PlaceModel> & Sendable] = [
        "number": \CityPageModel.PlaceModel.number,
        "anchor": \CityPageModel.PlaceModel.anchor,
        "name": \CityPageModel.PlaceModel.name,
        "description": \CityPageModel.PlaceModel.description,
        "wikipedia": \CityPageModel.PlaceModel.wikipedia,
        "openStreetMap": \CityPageModel.PlaceModel.openStreetMap,
        "image": \CityPageModel.PlaceModel.image,
    ]
}

extension CityPageModel.Share: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel.Share> & Sendable] = [
        "url": \CityPageModel.Share.url,
        "email": \CityPageModel.Share.email,
        "text": \CityPageModel.Share.text,
    ]
}

extension CityPageModel: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<CityPageModel> & Sendable] = [
        "t": \CityPageModel.t,
        "name": \CityPageModel.name,
        "country": \CityPageModel.country,
        "region": \CityPageModel.region,
        "slug": \CityPageModel.slug,
        "updated": \CityPageModel.updated,
        "updatedDate": \CityPageModel.updatedDate,
        "updatedDateTime": \CityPageModel.updatedDateTime,
        "staleNote": \CityPageModel.staleNote,
        "now": \CityPageModel.now,
        "airQuality": \CityPageModel.airQuality,
        "alerts": \CityPageModel.alerts,
        "hasAlerts": \CityPageModel.hasAlerts,
        "temperatureUnit": \CityPageModel.temperatureUnit,
        "hourlyStep": \CityPageModel.hourlyStep,
        "hourly": \CityPageModel.hourly,
        "hourlyChart": \CityPageModel.hourlyChart,
        "daily": \CityPageModel.daily,
        "dayCount": \CityPageModel.dayCount,
        "places": \CityPageModel.places,
        "hasPlaces": \CityPageModel.hasPlaces,
        "placesMap": \CityPageModel.placesMap,
        "share": \CityPageModel.share,
        "source": \CityPageModel.source,
        "root": \CityPageModel.root,
    ]
}

extension IndexPageModel.Card: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<IndexPageModel.Card> & Sendable] = [
        "name": \IndexPageModel.Card.name,
        "country": \IndexPageModel.Card.country,
        "href": \IndexPageModel.Card.href,
        "icon": \IndexPageModel.Card.icon,
        "temperature": \IndexPageModel.Card.temperature,
        "description": \IndexPageModel.Card.description,
        "high": \IndexPageModel.Card.high,
        "low": \IndexPageModel.Card.low,
        "alertCount": \IndexPageModel.Card.alertCount,
        "hasAlerts": \IndexPageModel.Card.hasAlerts,
        "plural": \IndexPageModel.Card.plural,
        "alertLabel": \IndexPageModel.Card.alertLabel,
        "staleNote": \IndexPageModel.Card.staleNote,
        "updated": \IndexPageModel.Card.updated,
    ]
}

extension IndexPageModel.Missing: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<IndexPageModel.Missing> & Sendable] = [
        "name": \IndexPageModel.Missing.name,
        "country": \IndexPageModel.Missing.country,
        "href": \IndexPageModel.Missing.href,
    ]
}

extension IndexPageModel: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<IndexPageModel> & Sendable] = [
        "t": \IndexPageModel.t,
        "title": \IndexPageModel.title,
        "cards": \IndexPageModel.cards,
        "missing": \IndexPageModel.missing,
        "hasMissing": \IndexPageModel.hasMissing,
    ]
}

extension LayoutModel.Site: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<LayoutModel.Site> & Sendable] = [
        "title": \LayoutModel.Site.title,
        "language": \LayoutModel.Site.language,
        "baseURL": \LayoutModel.Site.baseURL,
    ]
}

extension LayoutModel.Page: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<LayoutModel.Page> & Sendable] = [
        "title": \LayoutModel.Page.title,
        "description": \LayoutModel.Page.description,
        "canonicalURL": \LayoutModel.Page.canonicalURL,
        "root": \LayoutModel.Page.root,
        "kind": \LayoutModel.Page.kind,
        "noIndex": \LayoutModel.Page.noIndex,
    ]
}

extension LayoutModel.Attribution: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<LayoutModel.Attribution> & Sendable] = [
        "name": \LayoutModel.Attribution.name,
        "url": \LayoutModel.Attribution.url,
        "license": \LayoutModel.Attribution.license,
        "licenseURL": \LayoutModel.Attribution.licenseURL,
    ]
}

extension LayoutModel: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<LayoutModel> & Sendable] = [
        "attributions": \LayoutModel.attributions,
        "t": \LayoutModel.t,
        "site": \LayoutModel.site,
        "page": \LayoutModel.page,
        "content": \LayoutModel.content,
    ]
}

extension Category: KeyPathMustacheParent {
    static let mustacheFields: [String: PartialKeyPath<Category> & Sendable] = [
        "label": \Category.label,
        "key": \Category.key,
    ]
}
