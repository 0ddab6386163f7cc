#!/usr/bin/env python3
"""Writes recorded-style NWS API responses for the NWS demo city (Samples/denver-us/:
nws-points.json, nws-forecast-hourly.json, nws-forecast.json, nws-grid.json),
deterministic from a seed, no network. Run from anywhere:
python3 Benchmarks/tools/make_nws_samples.py

Shapes: the NWS API as documented at https://www.weather.gov/documentation/services-web-api
(its OpenAPI description, https://api.weather.gov/openapi.json: `Point`,
`GridpointForecast`, `Gridpoint`) and the gridpoint FAQ
(https://weather-gov.github.io/api/gridpoints), as recorded bodies have them:
- `/points/{lat},{lon}`: a GeoJSON Feature whose `properties` name the forecast office's
  grid square (`gridId`, `gridX`, `gridY`), the three forecast URLs and `timeZone`;
- `forecast/hourly`: 156 hourly `periods` from the current hour, `temperature` a number
  in `temperatureUnit` "F", `windSpeed` text ("10 mph"), `dewpoint`, `relativeHumidity`
  and `probabilityOfPrecipitation` as `{unitCode, value}` (wmoUnit:degC, wmoUnit:percent),
  `icon` URLs (`https://api.weather.gov/icons/land/day/sct?size=small`, `,<pop>` after a
  code with a chance of precipitation), `detailedForecast` empty;
- `forecast`: 12-hour periods named "Overnight", "Today", "Tonight", "Monday" … (the day's
  high by day, the night's low by night), `windSpeed` a range ("5 to 10 mph") and
  `detailedForecast` text;
- the grid (`/gridpoints/BOU/63,62`): layers `{uom, values: [{validTime, value}]}` with ISO
  8601 intervals (`2026-11-22T12:00:00+00:00/PT3H`), equal neighbours merged; wmoUnit:degC,
  wmoUnit:percent, wmoUnit:km_h-1, wmoUnit:degree_(angle), wmoUnit:mm, wmoUnit:m;
  precipitation and snowfall amounts over 6-hour intervals.
Icon codes are those https://api.weather.gov/icons lists.

The weather is a late-November week at Denver: a mild sunny Sunday, wind ahead of a
cold front on Monday, snow Monday night and Tuesday, snow showers then clearing on
Wednesday, a cold sunny Thanksgiving, milder at the weekend.
"""
import json, math, random, pathlib, datetime

SNAPSHOT = 1795348800  # 2026-11-22 12:00 UTC (05:00 MST), the demo's data time
ROOT = pathlib.Path(__file__).resolve().parents[2] / "Samples"
SLUG, LAT, LON, ELEVATION = "denver-us", 39.7392, -104.9903, 1609.3
OFFSET = -7 * 3600  # America/Denver, MST in November
BASE = "https://api.weather.gov"
GRID = "BOU/63,62"
HOURS = 156
START = SNAPSHOT  # the first hourly period: the current hour

# By local day from Sunday the 22nd: (low °C, high °C, cloud %, chance %, snow mm per hour, wind km/h)
DAYS = [
    (-4.0, 13.0, 10, 0, 0.0, 10),
    (-1.0, 9.0, 60, 10, 0.0, 30),
    (-9.0, -3.0, 100, 90, 4.0, 25),
    (-13.0, -2.0, 70, 40, 1.0, 15),
    (-12.0, 2.0, 5, 0, 0.0, 8),
    (-7.0, 7.0, 20, 0, 0.0, 10),
    (-4.0, 10.0, 40, 10, 0.0, 12),
    (-3.0, 11.0, 30, 0, 0.0, 10),
]
COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
WIND_WORDS = dict(zip(COMPASS, ["North", "North northeast", "Northeast", "East northeast", "East", "East southeast", "Southeast",
                                 "South southeast", "South", "South southwest", "Southwest", "West southwest", "West",
                                 "West northwest", "Northwest", "North northwest"]))
rng = random.Random(1795348800)


def local(t):
    return datetime.datetime.fromtimestamp(t + OFFSET, datetime.timezone.utc).replace(tzinfo=None)


def iso_local(t):
    return local(t).strftime("%Y-%m-%dT%H:%M:%S") + "-07:00"


def iso_utc(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + "+00:00"


def day_index(t):
    return (local(t).date() - local(SNAPSHOT).date()).days


def anchors():
    """(time, °C): each local day's low at 06:00 and high at 14:00."""
    midnight = SNAPSHOT - (local(SNAPSHOT).hour * 3600)
    points = []
    for i, (low, high, *_) in enumerate(DAYS):
        points += [(midnight + i * 86400 + 6 * 3600, low), (midnight + i * 86400 + 14 * 3600, high)]
    return points


ANCHORS = anchors()


def temperature(t):
    """Between two anchors along half a cosine: no jump at midnight."""
    for (a, x), (b, y) in zip(ANCHORS, ANCHORS[1:]):
        if a <= t <= b:
            return x + (y - x) * (0.5 - 0.5 * math.cos(math.pi * (t - a) / (b - a)))
    return ANCHORS[0][1] if t < ANCHORS[0][0] else ANCHORS[-1][1]


def weather(t):
    """The hour's true weather: temperature °C, cloud %, chance %, snow water mm, wind km/h, direction °."""
    i = min(day_index(t), len(DAYS) - 1)
    _, _, cloud, chance, snow, wind = DAYS[i]
    temp = temperature(t)
    # The front: snow from Monday 21:00 to Wednesday 09:00 local, heaviest on Tuesday.
    front = SNAPSHOT + 40 * 3600 <= t < SNAPSHOT + 76 * 3600
    if i == 1:
        chance = 10 if local(t).hour < 18 else 40
    if front:
        chance, cloud = max(chance, 80), 100
        snow = 0.8 if i == 2 else 0.4
    else:
        snow = 0.0
    return (temp, min(100, max(0, cloud + rng.randint(-5, 5))), chance, snow, wind + rng.uniform(-4, 4),
            (rng.uniform(300, 350) if front or i >= 3 else rng.uniform(180, 260)) % 360)


def code(cloud, chance, snow, temp, wind):
    """The NWS icon code for an hour."""
    if snow > 0 and chance >= 30:
        return "snow" if temp <= 0 else "rain_snow"
    sky = "skc" if cloud < 6.25 else "few" if cloud < 31.25 else "sct" if cloud < 56.25 else "bkn" if cloud < 93.75 else "ovc"
    return ("wind_" + sky) if wind >= 35 else sky


def icon(codes_and_chances, is_day, size):
    parts = "/".join(c + (f",{p}" for p in [pop]).__next__() if pop >= 20 else c for c, pop in codes_and_chances)
    return f"{BASE}/icons/land/{'day' if is_day else 'night'}/{parts}?size={size}"


SHORT = {"skc": "Sunny", "few": "Mostly Sunny", "sct": "Partly Sunny", "bkn": "Mostly Cloudy", "ovc": "Cloudy",
         "snow": "Snow", "rain_snow": "Rain And Snow"}
NIGHT_SHORT = {"skc": "Clear", "few": "Mostly Clear", "sct": "Partly Cloudy"}


def short(c, is_day, chance):
    base = c.removeprefix("wind_")
    text = (SHORT if is_day or base not in NIGHT_SHORT else NIGHT_SHORT).get(base, SHORT.get(base, "Cloudy"))
    if base in ("snow", "rain_snow") and chance < 60:
        text = "Chance " + text
    return text


def fahrenheit(c):
    return round(c * 9 / 5 + 32)


def mph(kmh):
    return round(kmh / 1.609344 / 5) * 5


def quantity(unit, value):
    return {"unitCode": "wmoUnit:" + unit, "value": value}


def main():
    hours = [(t, *weather(t)) for t in range(START - 5 * 3600, START + (HOURS + 12) * 3600, 3600)]
    by_time = {h[0]: h for h in hours}

    # Hourly periods.
    periods = []
    for n in range(HOURS):
        t = START + n * 3600
        _, temp, cloud, chance, snow, wind, direction = by_time[t]
        is_day = 6 <= local(t).hour < 18
        c = code(cloud, chance, snow, temp, wind)
        humidity = min(100, 45 + (40 if snow else 0) + rng.randint(-5, 10))
        dew = temp - (100 - humidity) / 5
        periods.append({
            "number": n + 1, "name": "", "startTime": iso_local(t), "endTime": iso_local(t + 3600), "isDaytime": is_day,
            "temperature": fahrenheit(temp), "temperatureUnit": "F", "temperatureTrend": "",
            "probabilityOfPrecipitation": quantity("percent", chance),
            "dewpoint": quantity("degC", round(dew, 4)), "relativeHumidity": quantity("percent", humidity),
            "windSpeed": f"{mph(wind)} mph", "windDirection": COMPASS[int(direction / 22.5 + 0.5) % 16],
            "icon": icon([(c, chance)], is_day, "small"), "shortForecast": short(c, is_day, chance), "detailedForecast": "",
        })

    # 12-hour periods: the current night's rest, then 06–18 and 18–06 local.
    first_six = START + ((6 - local(START).hour) % 24) * 3600
    bounds = [(START, first_six)] + [(first_six + k * 12 * 3600, first_six + (k + 1) * 12 * 3600) for k in range(13)]
    names = []
    for k, (a, b) in enumerate(bounds):
        is_day = 6 <= local(a).hour < 18
        weekday = local(a).strftime("%A")
        if k == 0:
            names.append("Overnight")
        elif k == 1:
            names.append("Today")
        elif k == 2:
            names.append("Tonight")
        elif k == 3 and local(a).weekday() == 3 or (local(a).strftime("%m-%d") == "11-26" and is_day):
            names.append("Thanksgiving Day")
        else:
            names.append(weekday if is_day else weekday + " Night")
    twelve = []
    for k, (a, b) in enumerate(bounds):
        is_day = 6 <= local(a).hour < 18
        span = [by_time[t] for t in range(a, b, 3600)]
        temps = [h[1] for h in span]
        temp = max(temps) if is_day else min(temps)
        chance = max(h[3] for h in span)
        wind = [h[5] for h in span]
        c = max((code(h[2], h[3], h[4], h[1], h[5]) for h in span), key=lambda c: ["skc", "few", "sct", "bkn", "ovc", "wind_skc", "wind_few", "wind_sct", "wind_bkn", "wind_ovc", "rain_snow", "snow"].index(c))
        direction = COMPASS[int(sum(h[6] for h in span) / len(span) / 22.5 + 0.5) % 16]
        low_mph, high_mph = mph(min(wind)), mph(max(wind))
        speed = f"{low_mph} mph" if low_mph == high_mph else f"{low_mph} to {high_mph} mph"
        words = short(c, is_day, chance)
        text = f"{words}, with a {'high' if is_day else 'low'} near {fahrenheit(temp)}. {WIND_WORDS[direction]} wind {speed}."
        if chance >= 20:
            snow = sum(h[4] for h in span)
            text += f" Chance of precipitation is {chance}%."
            if snow > 0:
                inches = snow * 10 / 25.4
                text += f" New snow accumulation of {max(1, math.floor(inches))} to {math.ceil(inches) + 1} inches possible."
        twelve.append({
            "number": k + 1, "name": names[k], "startTime": iso_local(a), "endTime": iso_local(b), "isDaytime": is_day,
            "temperature": fahrenheit(temp), "temperatureUnit": "F", "temperatureTrend": "",
            "probabilityOfPrecipitation": quantity("percent", chance),
            "windSpeed": speed, "windDirection": direction,
            "icon": icon([(c, chance)], is_day, "medium"), "shortForecast": words, "detailedForecast": text,
        })

    context = ["https://geojson.org/geojson-ld/geojson-context.jsonld",
               {"@version": "1.1", "wx": "https://api.weather.gov/ontology#", "geo": "http://www.opengis.net/ont/geosparql#",
                "unit": "http://codes.wmo.int/common/unit/", "@vocab": "https://api.weather.gov/ontology#"}]
    polygon = {"type": "Polygon", "coordinates": [[[LON + dx, LAT + dy] for dx, dy in
                                                   [(0.0118, -0.0113), (0.0158, 0.0102), (-0.0121, 0.0133), (-0.0161, -0.0083), (0.0118, -0.0113)]]]}
    updated = iso_utc(SNAPSHOT - 47 * 60)
    generated = iso_utc(SNAPSHOT - 3 * 60)
    valid = f"{iso_utc(START - 5 * 3600)}/P7DT13H"

    def forecast(units_periods, generator):
        return {"@context": context, "type": "Feature", "geometry": polygon,
                "properties": {"units": "us", "forecastGenerator": generator, "generatedAt": generated, "updateTime": updated,
                               "validTimes": valid, "elevation": quantity("m", ELEVATION), "periods": units_periods}}

    # Grid layers over UTC intervals, equal neighbours merged.
    def layer(uom, values, step=1, amounts=False):
        out = []
        for t, value in values:
            # An amount is over its interval: only intervals of none are merged.
            if out and out[-1][1] == value and out[-1][0] + out[-1][2] * 3600 == t and (not amounts or value == 0):
                out[-1][2] += step
            else:
                out.append([t, value, step])
        return {"uom": "wmoUnit:" + uom, "values": [{"validTime": f"{iso_utc(t)}/PT{n}H" if n < 24 else f"{iso_utc(t)}/P{n // 24}DT{n % 24}H".replace("DT0H", "D"), "value": v} for t, v, n in out]}

    grid_hours = [h for h in hours if h[0] < START + HOURS * 3600 + 6 * 3600]
    six = [t for t in range(START - 5 * 3600 - ((START - 5 * 3600) // 3600 % 6) * 3600, START + HOURS * 3600, 6 * 3600)]
    def six_sum(index):
        return [(t, round(sum(by_time[u][index] for u in range(t, t + 6 * 3600, 3600) if u in by_time), 2)) for t in six]
    snow_water = six_sum(4)
    grid = {
        "@context": context, "id": f"{BASE}/gridpoints/{GRID}", "type": "Feature", "geometry": polygon,
        "properties": {
            "@id": f"{BASE}/gridpoints/{GRID}", "@type": "wx:Gridpoint", "updateTime": updated, "validTimes": valid,
            "elevation": quantity("m", ELEVATION), "forecastOffice": f"{BASE}/offices/BOU", "gridId": "BOU", "gridX": 63, "gridY": 62,
            "temperature": layer("degC", [(h[0], round(h[1], 1)) for h in grid_hours]),
            "dewpoint": layer("degC", [(h[0], round(h[1] - 6 - (0 if h[4] else 3), 1)) for h in grid_hours]),
            "relativeHumidity": layer("percent", [(h[0], 85 if h[4] else 45) for h in grid_hours]),
            "apparentTemperature": layer("degC", [(h[0], round(h[1] - (h[5] / 10 if h[1] < 10 else 0), 1)) for h in grid_hours]),
            "skyCover": layer("percent", [(h[0], h[2]) for h in grid_hours]),
            "windDirection": layer("degree_(angle)", [(h[0], round(h[6])) for h in grid_hours]),
            "windSpeed": layer("km_h-1", [(h[0], round(h[5], 1)) for h in grid_hours]),
            "windGust": layer("km_h-1", [(h[0], round(h[5] * 1.6, 1)) for h in grid_hours]),
            "probabilityOfPrecipitation": layer("percent", [(h[0], h[3]) for h in grid_hours]),
            "quantitativePrecipitation": layer("mm", snow_water, 6, amounts=True),
            # Snow depth from its water at the 10:1 ratio NWS's forecasters commonly start from.
            "snowfallAmount": layer("mm", [(t, round(v * 10, 1)) for t, v in snow_water], 6, amounts=True),
            "iceAccumulation": layer("mm", [(t, 0) for t in six], 6, amounts=True),
            "visibility": layer("m", [(h[0], 1609.34 if h[4] else 16093.44) for h in grid_hours]),
        },
    }
    points = {
        "@context": context, "id": f"{BASE}/points/{LAT},{LON}", "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [LON, LAT]},
        "properties": {
            "@id": f"{BASE}/points/{LAT},{LON}", "@type": "wx:Point", "cwa": "BOU", "forecastOffice": f"{BASE}/offices/BOU",
            "gridId": "BOU", "gridX": 63, "gridY": 62,
            "forecast": f"{BASE}/gridpoints/{GRID}/forecast", "forecastHourly": f"{BASE}/gridpoints/{GRID}/forecast/hourly",
            "forecastGridData": f"{BASE}/gridpoints/{GRID}", "observationStations": f"{BASE}/gridpoints/{GRID}/stations",
            "relativeLocation": {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-104.9847, 39.7376]},
                                 "properties": {"city": "Denver", "state": "CO", "distance": quantity("m", 505.1),
                                                "bearing": quantity("degree_(angle)", 251)}},
            "forecastZone": f"{BASE}/zones/forecast/COZ040", "county": f"{BASE}/zones/county/COC031",
            "fireWeatherZone": f"{BASE}/zones/fire/COZ240", "timeZone": "America/Denver", "radarStation": "KFTG",
        },
    }
    folder = ROOT / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in [("nws-points.json", points), ("nws-forecast-hourly.json", forecast(periods, "HourlyForecastGenerator")),
                       ("nws-forecast.json", forecast(twelve, "BaselineForecastGenerator")), ("nws-grid.json", grid)]:
        (folder / name).write_text(json.dumps(body, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
