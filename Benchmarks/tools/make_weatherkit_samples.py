#!/usr/bin/env python3
"""Writes a recorded-style Apple WeatherKit REST response for the WeatherKit demo city
(Samples/boston-us/weatherkit.json), deterministic from a seed, no network. Run from
anywhere: python3 Benchmarks/tools/make_weatherkit_samples.py

Shape: the `Weather` object of `GET /api/v1/weather/{language}/{latitude}/{longitude}` as
documented in "WeatherKit REST API" (https://developer.apple.com/documentation/weatherkitrestapi):
`currentWeather` (CurrentWeatherData), `forecastHourly` (HourWeatherConditions from the
current hour to `hourlyEnd`, 76 hours as Isobar asks), `forecastDaily` (ten
DayWeatherConditions of the requested `timezone`, with `daytimeForecast` and
`overnightForecast`), `forecastNextHour` (60 ForecastMinute and their ForecastPeriodSummary)
and `weatherAlerts` (WeatherAlertCollection), each with its `metadata`. Units as documented:
°C, km/h, millibars, mm, mm/h, metres, fractions 0…1; times ISO 8601 in UTC.

The weather is a late-November day in Boston: a rainy front with a thunderstorm in the
afternoon and a wind advisory, then a cold, breezy, clear spell with flurries.
"""
import json, math, random, pathlib

SNAPSHOT = 1795348800  # 2026-11-22 12:00 UTC, the demo's data time
ROOT = pathlib.Path(__file__).resolve().parents[2] / "Samples"
SLUG, LAT, LON, OFFSET = "boston-us", 42.3601, -71.0589, -5 * 3600  # America/New_York, EST in November
HOURS, DAYS = 76, 10
random.seed(32)


def iso(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def metadata(expires):
    return {"attributionURL": "https://developer.apple.com/weatherkit/data-source-attribution/",
            "expireTime": iso(SNAPSHOT + expires), "latitude": round(LAT, 3), "longitude": round(LON, 3),
            "readTime": iso(SNAPSHOT), "reportedTime": iso(SNAPSHOT - 600), "units": "m", "version": 1}


# Condition by hour from the data time (local 07:00 on the 22nd): the front, then cold and clear.
PLAN = (["MostlyCloudy"] * 2 + ["Drizzle", "Rain", "Rain", "HeavyRain", "Thunderstorms", "Rain", "Drizzle"]
        + ["Cloudy"] * 4 + ["Windy"] * 6 + ["MostlyClear"] * 8 + ["Clear"] * 10 + ["Flurries"] * 4
        + ["PartlyCloudy"] * 10 + ["Breezy"] * 6 + ["MostlyCloudy"] * 8 + ["Snow"] * 6 + ["Cloudy"] * 5)
RAIN = {"Drizzle": 0.3, "Rain": 1.6, "HeavyRain": 5.5, "Thunderstorms": 7.0}
SNOW = {"Flurries": 0.2, "Snow": 1.1}
CLOUD = {"Clear": 0.03, "MostlyClear": 0.18, "PartlyCloudy": 0.4, "MostlyCloudy": 0.7, "Cloudy": 0.97, "Breezy": 0.2, "Windy": 0.6}


def temperature(t):
    """A falling mean (the cold spell after the front) with a daily swing peaking at 14:00 local."""
    days = (t - SNAPSHOT) / 86400
    mean = 8.0 - 3.0 * min(days, 2.0) + 1.0 * max(days - 3.0, 0)
    local = ((t + OFFSET) % 86400) / 3600
    return round(mean + 4.0 * math.cos((local - 14) / 24 * 2 * math.pi) + random.uniform(-0.3, 0.3), 1)


def hour(i):
    t = SNAPSHOT + i * 3600
    code = PLAN[i]
    temp = temperature(t)
    local = ((t + OFFSET) % 86400) / 3600
    amount = RAIN.get(code) or SNOW.get(code) or 0.0
    kind = "rain" if code in RAIN else "snow" if code in SNOW else "clear"
    windy = code in ("Windy", "Thunderstorms", "HeavyRain")
    speed = round(random.uniform(35, 45) if windy else random.uniform(8, 22), 1)
    humidity = round(0.9 if amount else random.uniform(0.5, 0.75), 2)
    return {
        "forecastStart": iso(t), "cloudCover": CLOUD.get(code, 0.95), "conditionCode": code,
        "daylight": 7 <= local < 16.5, "humidity": humidity,
        "precipitationAmount": amount, "precipitationChance": 0.9 if amount else round(random.uniform(0, 0.15), 2),
        "precipitationIntensity": amount, "precipitationType": kind,
        "pressure": round(1008 + 6 * math.tanh((i - 12) / 8) + random.uniform(-0.4, 0.4), 1),
        "pressureTrend": "rising" if i > 10 else "falling", "snowfallIntensity": SNOW.get(code, 0.0),
        "temperature": temp, "temperatureApparent": round(temp - speed / 8, 1),
        "temperatureDewPoint": round(temp - (1 - humidity) * 20, 1),
        "uvIndex": 2 if 10 <= local < 14 and not amount else 0, "visibility": 6000.0 if amount else 16093.4,
        "windDirection": 190 if i < 10 else 300, "windGust": round(speed * 1.7, 1), "windSpeed": speed,
    }


def day(d, hours):
    start = SNAPSHOT - 7 * 3600 + d * 86400  # local midnight, 05:00 UTC
    own = [h for h in hours if start <= parse(h["forecastStart"]) < start + 86400]
    # The hours' own where there are some; else the curve at the coldest and warmest hours (05:00, 14:00).
    temps = [h["temperature"] for h in own] or [temperature(start + 5 * 3600), temperature(start + 14 * 3600)]
    high, low = max(temps), min(temps)
    codes = [h["conditionCode"] for h in own if 7 <= ((parse(h["forecastStart"]) + OFFSET) % 86400) / 3600 < 19]
    code = max(codes, key=lambda c: (c in RAIN or c in SNOW, RAIN.get(c, SNOW.get(c, 0)))) if codes else ["PartlyCloudy", "Clear", "MostlyCloudy", "Rain"][d % 4]
    rain = round(sum(h["precipitationAmount"] for h in own), 1) if own else (2.4 if code == "Rain" else 0.0)
    kinds = {h["precipitationType"] for h in own if h["precipitationAmount"]}
    kind = ("mixed" if len(kinds) > 1 else kinds.pop()) if kinds else "rain" if code in RAIN else "snow" if code in SNOW else "clear"
    part = lambda first: {"forecastStart": iso(start + (7 if first else 19) * 3600), "forecastEnd": iso(start + (19 if first else 31) * 3600),
                          "cloudCover": CLOUD.get(code, 0.9), "conditionCode": code, "humidity": 0.7,
                          "precipitationAmount": rain / 2, "precipitationChance": 0.8 if rain else 0.1, "precipitationType": kind,
                          "snowfallAmount": 0.0, "windDirection": 280, "windSpeed": 20.0}
    sunrise = start + 6 * 3600 + 35 * 60 + d * 60
    return {
        "forecastStart": iso(start), "forecastEnd": iso(start + 86400), "conditionCode": code,
        "maxUvIndex": 1 if rain else 2, "moonPhase": ["waxingGibbous", "waxingGibbous", "full", "full", "waningGibbous",
                                                      "waningGibbous", "waningGibbous", "thirdQuarter", "waningCrescent", "waningCrescent"][d],
        "precipitationAmount": rain, "precipitationChance": 0.9 if rain else 0.1, "precipitationType": kind,
        "snowfallAmount": round(sum(h["snowfallIntensity"] for h in own) * 10, 1) if own else 0.0,
        "sunrise": iso(sunrise), "sunset": iso(sunrise + 9 * 3600 + 40 * 60 - 2 * d * 60),
        "temperatureMax": high, "temperatureMin": low,
        "daytimeForecast": part(True), "overnightForecast": part(False),
    }


def parse(text):
    import datetime
    return int(datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp())


def main():
    hours = [hour(i) for i in range(HOURS)]
    intensities = [0.0] * 20 + [round(0.1 + 0.05 * m, 2) for m in range(25)] + [1.4] * 15
    body = {
        "currentWeather": dict({k: v for k, v in hours[0].items() if k not in ("forecastStart", "precipitationAmount", "precipitationChance",
                                                                               "precipitationType", "snowfallIntensity")},
                               name="CurrentWeather", metadata=metadata(300), asOf=iso(SNAPSHOT), precipitationIntensity=0.0),
        "forecastHourly": {"name": "HourlyForecast", "metadata": metadata(3600), "hours": hours},
        "forecastDaily": {"name": "DailyForecast", "metadata": metadata(3600), "days": [day(d, hours) for d in range(DAYS)]},
        "forecastNextHour": {
            "name": "NextHourForecast", "metadata": metadata(300), "forecastStart": iso(SNAPSHOT), "forecastEnd": iso(SNAPSHOT + 3600),
            "minutes": [{"startTime": iso(SNAPSHOT + m * 60), "precipitationChance": 0.1 if not x else 0.8, "precipitationIntensity": x}
                        for m, x in enumerate(intensities)],
            "summary": [{"startTime": iso(SNAPSHOT), "endTime": iso(SNAPSHOT + 1200), "condition": "clear", "precipitationChance": 0.1,
                         "precipitationIntensity": 0.0},
                        {"startTime": iso(SNAPSHOT + 1200), "condition": "rain", "precipitationChance": 0.8, "precipitationIntensity": 1.4}],
        },
        "weatherAlerts": {
            "name": "WeatherAlerts", "metadata": metadata(1800),
            "alerts": [{
                "id": "6d1f0c2a-2026-4b22-9c11-0a0b0c0d0e0f", "areaId": "mac025", "areaName": "Suffolk County",
                "certainty": "likely", "countryCode": "US", "description": "Wind Advisory",
                "effectiveTime": iso(SNAPSHOT - 3600), "eventOnsetTime": iso(SNAPSHOT + 6 * 3600),
                "eventEndTime": iso(SNAPSHOT + 20 * 3600), "expireTime": iso(SNAPSHOT + 20 * 3600),
                "issuedTime": iso(SNAPSHOT - 3900), "responses": ["prepare"], "severity": "moderate",
                "source": "National Weather Service", "urgency": "expected",
            }],
        },
    }
    folder = ROOT / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "weatherkit.json").write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {folder / 'weatherkit.json'}")


main()
