// Templates find a model's values by name. These switches are the lookup: direct code,
// no reflection and no casts (`Mirror` and the casts of a general Mustache library were
// most of a build's time). `TemplateFieldTests` checks every stored property of each
// model answers here under its own name.

extension CityPageModel.Icon: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "src": TemplateValue(self.src)
        case "alt": TemplateValue(self.alt)
        default: .missing
        }
    }
}

extension CityPageModel.Wind: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "speed": TemplateValue(self.speed)
        case "gust": TemplateValue(self.gust)
        case "direction": TemplateValue(self.direction)
        case "arrowRotation": TemplateValue(self.arrowRotation)
        case "beaufort": TemplateValue(self.beaufort)
        case "beaufortForce": TemplateValue(self.beaufortForce)
        case "animationPeriod": TemplateValue(self.animationPeriod)
        default: .missing
        }
    }
}

extension CityPageModel.Now: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "icon": TemplateValue(self.icon)
        case "temperature": TemplateValue(self.temperature)
        case "feelsLike": TemplateValue(self.feelsLike)
        case "description": TemplateValue(self.description)
        case "otherConditions": TemplateValue(self.otherConditions)
        case "high": TemplateValue(self.high)
        case "low": TemplateValue(self.low)
        case "wind": TemplateValue(self.wind)
        case "humidity": TemplateValue(self.humidity)
        case "dewPoint": TemplateValue(self.dewPoint)
        case "pressure": TemplateValue(self.pressure)
        case "surfacePressure": TemplateValue(self.surfacePressure)
        case "visibility": TemplateValue(self.visibility)
        case "cloudCover": TemplateValue(self.cloudCover)
        case "rainLastHour": TemplateValue(self.rainLastHour)
        case "snowLastHour": TemplateValue(self.snowLastHour)
        case "uvIndex": TemplateValue(self.uvIndex)
        case "uvCategory": TemplateValue(self.uvCategory)
        case "sunrise": TemplateValue(self.sunrise)
        case "sunset": TemplateValue(self.sunset)
        case "polarDay": TemplateValue(self.polarDay)
        case "dayLength": TemplateValue(self.dayLength)
        case "moonPhase": TemplateValue(self.moonPhase)
        case "moonrise": TemplateValue(self.moonrise)
        case "moonset": TemplateValue(self.moonset)
        default: .missing
        }
    }
}

extension CityPageModel.Nowcast: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "text": TemplateValue(self.text)
        case "strip": TemplateValue(self.strip)
        default: .missing
        }
    }
}

extension CityPageModel.AirQualityModel.Pollutant: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "name": TemplateValue(self.name)
        case "value": TemplateValue(self.value)
        default: .missing
        }
    }
}

extension CityPageModel.AirQualityModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "index": TemplateValue(self.index)
        case "category": TemplateValue(self.category)
        case "pollutants": TemplateValue(self.pollutants)
        default: .missing
        }
    }
}

extension CityPageModel.Alert: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "event": TemplateValue(self.event)
        case "sender": TemplateValue(self.sender)
        case "start": TemplateValue(self.start)
        case "startDateTime": TemplateValue(self.startDateTime)
        case "end": TemplateValue(self.end)
        case "endDateTime": TemplateValue(self.endDateTime)
        case "description": TemplateValue(self.description)
        case "upcoming": TemplateValue(self.upcoming)
        case "tags": TemplateValue(self.tags)
        case "hasTags": TemplateValue(self.hasTags)
        default: .missing
        }
    }
}

extension CityPageModel.Hour: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "time": TemplateValue(self.time)
        case "datetime": TemplateValue(self.datetime)
        case "icon": TemplateValue(self.icon)
        case "temperature": TemplateValue(self.temperature)
        case "precipitationChance": TemplateValue(self.precipitationChance)
        case "precipitationKind": TemplateValue(self.precipitationKind)
        case "precipitationAmount": TemplateValue(self.precipitationAmount)
        case "wind": TemplateValue(self.wind)
        default: .missing
        }
    }
}

extension CityPageModel.Day: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "weekday": TemplateValue(self.weekday)
        case "date": TemplateValue(self.date)
        case "datetime": TemplateValue(self.datetime)
        case "icon": TemplateValue(self.icon)
        case "low": TemplateValue(self.low)
        case "high": TemplateValue(self.high)
        case "rangeStart": TemplateValue(self.rangeStart)
        case "rangeWidth": TemplateValue(self.rangeWidth)
        case "precipitationChance": TemplateValue(self.precipitationChance)
        case "precipitationKind": TemplateValue(self.precipitationKind)
        case "precipitationAmount": TemplateValue(self.precipitationAmount)
        case "summary": TemplateValue(self.summary)
        default: .missing
        }
    }
}

extension CityPageModel.PlaceModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "number": TemplateValue(self.number)
        case "anchor": TemplateValue(self.anchor)
        case "name": TemplateValue(self.name)
        case "description": TemplateValue(self.description)
        case "wikipedia": TemplateValue(self.wikipedia)
        case "openStreetMap": TemplateValue(self.openStreetMap)
        case "image": TemplateValue(self.image)
        default: .missing
        }
    }
}

extension CityPageModel.Share: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "url": TemplateValue(self.url)
        case "email": TemplateValue(self.email)
        case "text": TemplateValue(self.text)
        default: .missing
        }
    }
}

extension CityPageModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "t": TemplateValue(self.t)
        case "name": TemplateValue(self.name)
        case "country": TemplateValue(self.country)
        case "region": TemplateValue(self.region)
        case "slug": TemplateValue(self.slug)
        case "updated": TemplateValue(self.updated)
        case "updatedDate": TemplateValue(self.updatedDate)
        case "updatedDateTime": TemplateValue(self.updatedDateTime)
        case "staleNote": TemplateValue(self.staleNote)
        case "descriptionLanguage": TemplateValue(self.descriptionLanguage)
        case "now": TemplateValue(self.now)
        case "nowcast": TemplateValue(self.nowcast)
        case "airQuality": TemplateValue(self.airQuality)
        case "alerts": TemplateValue(self.alerts)
        case "hasAlerts": TemplateValue(self.hasAlerts)
        case "temperatureUnit": TemplateValue(self.temperatureUnit)
        case "hourlyStep": TemplateValue(self.hourlyStep)
        case "hourlyHeading": TemplateValue(self.hourlyHeading)
        case "hasHourly": TemplateValue(self.hasHourly)
        case "hasDaily": TemplateValue(self.hasDaily)
        case "hourly": TemplateValue(self.hourly)
        case "hourlyChart": TemplateValue(self.hourlyChart)
        case "daily": TemplateValue(self.daily)
        case "dayCount": TemplateValue(self.dayCount)
        case "places": TemplateValue(self.places)
        case "hasPlaces": TemplateValue(self.hasPlaces)
        case "placesMap": TemplateValue(self.placesMap)
        case "share": TemplateValue(self.share)
        case "source": TemplateValue(self.source)
        case "root": TemplateValue(self.root)
        default: .missing
        }
    }
}

extension IndexPageModel.Card: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "name": TemplateValue(self.name)
        case "country": TemplateValue(self.country)
        case "href": TemplateValue(self.href)
        case "icon": TemplateValue(self.icon)
        case "temperature": TemplateValue(self.temperature)
        case "description": TemplateValue(self.description)
        case "high": TemplateValue(self.high)
        case "low": TemplateValue(self.low)
        case "alertCount": TemplateValue(self.alertCount)
        case "hasAlerts": TemplateValue(self.hasAlerts)
        case "plural": TemplateValue(self.plural)
        case "alertLabel": TemplateValue(self.alertLabel)
        case "staleNote": TemplateValue(self.staleNote)
        case "nowcast": TemplateValue(self.nowcast)
        case "updated": TemplateValue(self.updated)
        default: .missing
        }
    }
}

extension IndexPageModel.Missing: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "name": TemplateValue(self.name)
        case "country": TemplateValue(self.country)
        case "href": TemplateValue(self.href)
        default: .missing
        }
    }
}

extension IndexPageModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "t": TemplateValue(self.t)
        case "title": TemplateValue(self.title)
        case "cards": TemplateValue(self.cards)
        case "missing": TemplateValue(self.missing)
        case "hasMissing": TemplateValue(self.hasMissing)
        default: .missing
        }
    }
}

extension LayoutModel.Site: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "title": TemplateValue(self.title)
        case "language": TemplateValue(self.language)
        case "baseURL": TemplateValue(self.baseURL)
        default: .missing
        }
    }
}

extension LayoutModel.Page: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "title": TemplateValue(self.title)
        case "description": TemplateValue(self.description)
        case "canonicalURL": TemplateValue(self.canonicalURL)
        case "root": TemplateValue(self.root)
        case "kind": TemplateValue(self.kind)
        case "noIndex": TemplateValue(self.noIndex)
        default: .missing
        }
    }
}

extension LayoutModel.Attribution: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "name": TemplateValue(self.name)
        case "url": TemplateValue(self.url)
        case "license": TemplateValue(self.license)
        case "licenseURL": TemplateValue(self.licenseURL)
        default: .missing
        }
    }
}

extension LayoutModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "attributions": TemplateValue(self.attributions)
        case "t": TemplateValue(self.t)
        case "site": TemplateValue(self.site)
        case "page": TemplateValue(self.page)
        case "content": TemplateValue(self.content)
        default: .missing
        }
    }
}

extension Category: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "label": TemplateValue(self.label)
        case "key": TemplateValue(self.key)
        default: .missing
        }
    }
}

extension NotFoundPageModel: TemplateContext {
    func value(named name: String) -> TemplateValue {
        switch name {
        case "t": TemplateValue(self.t)
        case "root": TemplateValue(self.root)
        default: .missing
        }
    }
}
