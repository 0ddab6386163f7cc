#!/usr/bin/env python3
"""Writes a recorded-style MET Norway Locationforecast 2.0 response for the MET Norway
demo city (Samples/bergen-no/met-norway-forecast.json), deterministic from a seed, no
network. Run from anywhere: python3 Benchmarks/tools/make_met_norway_samples.py

Shape: the `complete` product as documented in "General point forecast JSON format"
(https://api.met.no/doc/ForecastJSON) and the product's swagger
(https://api.met.no/weatherapi/locationforecast/2.0/swagger), checked against recorded
`complete` bodies: a GeoJSON Feature with `geometry.coordinates` [lon, lat, altitude],
`properties.meta` (`updated_at`, `units`) and `properties.timeseries`, hourly from the
data time for 60 hours, then 6-hourly (00, 06, 12, 18 UTC) to about nine and a half days.
Each step has `data.instant.details` and, while the data reaches that far, `next_1_hours`
(hourly part only), `next_6_hours` and `next_12_hours`, each with `summary.symbol_code`
and `details`; the last step has only its instant values, as the service's last steps do.
Symbols are weathericon 2.0's (https://api.met.no/weatherapi/weathericon/2.0/documentation):
`_day`/`_night` where the symbol has a sun or a moon, by the sun's altitude at the middle
of the period (Bergen has no polar twilight).

The weather is a late-November week on the coast of Western Norway: showers, a
thundery front, sleet and snow on a cold spell, fog, then rain again.
"""
import json, math, random, pathlib

SNAPSHOT = 1795348800  # 2026-11-22 12:00 UTC, the demo's data time
ROOT = pathlib.Path(__file__).resolve().parents[2] / "Samples"
SLUG, LAT, LON, ALTITUDE, OFFSET = "bergen-no", 60.3913, 5.3221, 12, 3600  # Europe/Oslo, CET in November

HOURLY_STEPS = 61          # 12:00 UTC on the 22nd to 00:00 UTC on the 25th
LAST = SNAPSHOT + 9 * 86400 + 12 * 3600  # 2026-12-02 00:00 UTC

# Symbol plan: one symbol (without variant) per 3 hours over the hourly part, then one per
# 6-hour period. Variants are added where the symbol has them.
HOURLY_PLAN = [
    "rainshowers", "lightrainshowers", "cloudy", "rain",                      # 22nd, 12–24 UTC
    "heavyrain", "rainshowersandthunder", "heavyrainshowers", "rainshowers",  # 23rd
    "partlycloudy", "cloudy", "lightsleetshowers", "sleetshowers",
    "fog", "fog", "lightsleet", "sleet",                                      # 24th
    "lightsnowshowers", "snowshowers", "heavysnowshowers", "fair",
]
SIX_HOURLY_PLAN = [
    "snowshowers", "lightsnow", "snow", "partlycloudy",       # 25th from 06 UTC (first is 06–12)
    "clearsky", "fair", "partlycloudy", "cloudy",             # 26th
    "fog", "cloudy", "lightrain", "rain",                     # 27th
    "cloudy", "lightsleetshowers", "sleetshowers", "partlycloudy",      # 28th
    "partlycloudy", "fair", "lightrainshowers", "rainshowers",          # 29th
    "rain", "heavyrain", "rainshowers", "cloudy",             # 30th
    "lightrain", "cloudy", "partlycloudy",                    # 1st
]
VARIANTS = {"clearsky", "fair", "partlycloudy"} | {s for s in HOURLY_PLAN + SIX_HOURLY_PLAN if "showers" in s}
# Most significant last: a period's symbol is its most significant hour's.
SEVERITY = ["clearsky", "fair", "partlycloudy", "cloudy", "fog",
            "lightrain", "lightrainshowers", "rain", "rainshowers", "heavyrain", "heavyrainshowers",
            "lightsleet", "lightsleetshowers", "sleet", "sleetshowers",
            "lightsnow", "lightsnowshowers", "snow", "snowshowers", "heavysnowshowers",
            "rainshowersandthunder"]
# mm per hour by intensity; probability of precipitation and cloud by symbol.
INTENSITY = {"light": (0.1, 0.5), "": (0.5, 1.2), "heavy": (1.5, 3.0)}
CLOUD = {"clearsky": (0, 8), "fair": (12, 30), "partlycloudy": (40, 70), "cloudy": (88, 100)}

# The week's daily mean, °C, by local day from the 22nd: mild, a cold spell, mild again.
DAY_MEAN = [6.5, 6.0, 2.0, -0.5, -3.0, 1.0, 4.5, 5.0, 6.0, 6.5, 6.0]


def sun_altitude(t):
    """The sun's altitude at Bergen, degrees (low-precision formulae: day or night only)."""
    d = t / 86400 - 10957.5
    g = math.radians(357.529 + 0.98560028 * d)
    q = 280.459 + 0.98564736 * d
    lam = math.radians(q + 1.915 * math.sin(g) + 0.020 * math.sin(2 * g))
    e = math.radians(23.439 - 0.00000036 * d)
    ra = math.atan2(math.cos(e) * math.sin(lam), math.cos(lam))
    dec = math.asin(math.sin(e) * math.sin(lam))
    gmst = math.radians((280.46061837 + 360.98564736629 * d) % 360)
    ha = gmst + math.radians(LON) - ra
    lat = math.radians(LAT)
    return math.degrees(math.asin(math.sin(lat) * math.sin(dec) + math.cos(lat) * math.cos(dec) * math.cos(ha)))


def variant(name, middle):
    if name not in VARIANTS:
        return name
    return name + ("_day" if sun_altitude(middle) > -0.833 else "_night")


def falls(name):
    return name not in CLOUD and name != "fog"


def iso(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    rng = random.Random(2026)

    def temperature(t):
        local = t + OFFSET
        # The daily means belong to local noon; between noons the mean moves linearly.
        day = (local - (SNAPSHOT + OFFSET - (SNAPSHOT + OFFSET) % 86400)) / 86400 - 0.5
        hour = (local % 86400) / 3600
        i = max(0, min(int(math.floor(day)), len(DAY_MEAN) - 2))
        mean = DAY_MEAN[i] + (DAY_MEAN[i + 1] - DAY_MEAN[i]) * max(0.0, min(1.0, day - i))
        # Short days: a small swing, highest at 14 h local.
        return mean + 1.6 * math.cos((hour - 14) / 24 * 2 * math.pi)

    def symbol_at(t):
        """The plan's symbol for the hour starting at t."""
        if t < SNAPSHOT + HOURLY_STEPS * 3600:
            return HOURLY_PLAN[min((t - SNAPSHOT) // (3 * 3600), len(HOURLY_PLAN) - 1)]
        first6 = SNAPSHOT + HOURLY_STEPS * 3600 + 5 * 3600  # 06 UTC on the 25th
        return SIX_HOURLY_PLAN[max(0, min((t - first6) // (6 * 3600), len(SIX_HOURLY_PLAN) - 1))]

    def amount(name, hours):
        if not falls(name):
            return 0.0
        bare = name.replace("andthunder", "")
        kind = "heavy" if bare.startswith("heavy") else "light" if bare.startswith("light") else ""
        low, high = INTENSITY[kind]
        per_hour = rng.uniform(low, high) * (0.5 if "showers" in bare else 1.0)  # showers come and go
        return round(per_hour * hours, 1)

    def worst(names):
        return max(names, key=lambda s: SEVERITY.index(s))

    def period(start, hours, with_extremes=False, one_hour=False):
        names = [symbol_at(start + 3600 * h) for h in range(hours)]
        name = worst(names)
        total = round(sum(amount(n, 1) for n in names), 1)
        chance = rng.randint(55, 95) if total > 0 else rng.randint(0, 15)
        details = {}
        if hours <= 6:
            details["precipitation_amount"] = total
            details["precipitation_amount_max"] = round(total * 1.8 + (0.3 if total > 0 else 0), 1)
            details["precipitation_amount_min"] = round(total * 0.4, 1)
        if with_extremes:
            temps = [temperature(start + 3600 * h) for h in range(hours + 1)]
            details = {"air_temperature_max": round(max(temps) + 0.3, 1), "air_temperature_min": round(min(temps) - 0.3, 1), **details}
        details["probability_of_precipitation"] = float(chance)
        if one_hour:
            details["probability_of_thunder"] = round(rng.uniform(18, 35), 1) if "thunder" in name else round(rng.uniform(0, 2), 1)
        summary = {"symbol_code": variant(name, start + hours * 1800)}
        return {"summary": summary, "details": details}

    times = [SNAPSHOT + 3600 * i for i in range(HOURLY_STEPS)]
    t = times[-1] + 6 * 3600
    while t <= LAST:
        times.append(t)
        t += 6 * 3600

    pressure = 1004.0
    series = []
    for t in times:
        temp = temperature(t) + rng.uniform(-0.3, 0.3)
        name = symbol_at(t)
        cloud = rng.uniform(*CLOUD[name]) if name in CLOUD else rng.uniform(92, 100)
        humidity = rng.uniform(93, 99) if name == "fog" else rng.uniform(72, 92) if falls(name) else rng.uniform(60, 80)
        a, b = 17.62, 243.12
        g = math.log(humidity / 100) + a * temp / (b + temp)
        dew = b * g / (a - g)
        pressure = min(1030.0, max(975.0, pressure + rng.uniform(-1.2, 1.1)))
        wind = rng.uniform(4, 9) if not falls(name) else rng.uniform(7, 14)
        altitude = sun_altitude(t)
        uv = round(max(0.0, 0.4 * math.sin(math.radians(altitude))), 1) if altitude > 0 else 0.0
        instant = {
            "air_pressure_at_sea_level": round(pressure, 1),
            "air_temperature": round(temp, 1),
            "air_temperature_percentile_10": round(temp - 0.9, 1),
            "air_temperature_percentile_90": round(temp + 0.8, 1),
            "cloud_area_fraction": round(cloud, 1),
            "cloud_area_fraction_high": round(cloud * rng.uniform(0.2, 0.9), 1),
            "cloud_area_fraction_low": round(cloud * rng.uniform(0.5, 1.0), 1),
            "cloud_area_fraction_medium": round(cloud * rng.uniform(0.3, 1.0), 1),
            "dew_point_temperature": round(dew, 1),
            "fog_area_fraction": round(rng.uniform(40, 90), 1) if name == "fog" else 0.0,
            "relative_humidity": round(humidity, 1),
            "ultraviolet_index_clear_sky": uv,
            "wind_from_direction": round(rng.uniform(200, 280) if temp > 1 else rng.uniform(330, 360) % 360, 1),
            "wind_speed": round(wind, 1),
            "wind_speed_of_gust": round(wind * rng.uniform(1.4, 1.9), 1),
            "wind_speed_percentile_10": round(wind * 0.8, 1),
            "wind_speed_percentile_90": round(wind * 1.2, 1),
        }
        data = {"instant": {"details": instant}}
        if t + 12 * 3600 <= LAST:
            data["next_12_hours"] = period(t, 12)
        if t < SNAPSHOT + HOURLY_STEPS * 3600:
            data["next_1_hours"] = period(t, 1, one_hour=True)
        if t + 6 * 3600 <= LAST:
            data["next_6_hours"] = period(t, 6, with_extremes=True)
        series.append({"time": iso(t), "data": data})

    units = {
        "air_pressure_at_sea_level": "hPa", "air_temperature": "celsius", "air_temperature_max": "celsius",
        "air_temperature_min": "celsius", "air_temperature_percentile_10": "celsius",
        "air_temperature_percentile_90": "celsius", "cloud_area_fraction": "%", "cloud_area_fraction_high": "%",
        "cloud_area_fraction_low": "%", "cloud_area_fraction_medium": "%", "dew_point_temperature": "celsius",
        "fog_area_fraction": "%", "precipitation_amount": "mm", "precipitation_amount_max": "mm",
        "precipitation_amount_min": "mm", "probability_of_precipitation": "%", "probability_of_thunder": "%",
        "relative_humidity": "%", "ultraviolet_index_clear_sky": "1", "wind_from_direction": "degrees",
        "wind_speed": "m/s", "wind_speed_of_gust": "m/s", "wind_speed_percentile_10": "m/s",
        "wind_speed_percentile_90": "m/s",
    }
    body = {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [LON, LAT, ALTITUDE]},
        "properties": {"meta": {"updated_at": iso(SNAPSHOT - 27 * 60 - 14), "units": units}, "timeseries": series},
    }
    folder = ROOT / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "met-norway-forecast.json").write_text(json.dumps(body, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
