#!/usr/bin/env python3
"""Writes recorded-style Open-Meteo responses for the Open-Meteo demo cities
(Samples/<slug>/open-meteo-forecast.json, open-meteo-air-quality.json,
open-meteo-geocode.json), deterministic from a seed. Shapes follow the API with
timeformat=unixtime and timezone=auto: parallel arrays per block, units blocks,
`current` at the quarter hour, 48 hourly steps, 8 daily entries at local midnight.
Every variable OpenMeteoRequests asks for is there, in the order asked for."""
import json, math, random, pathlib

SNAPSHOT = 1795348800  # 2026-11-22 12:00 UTC
ROOT = pathlib.Path(__file__).resolve().parents[2] / "Samples"

CITIES = [
    # slug, name, country, admin1, lat, lon, tz, offset, elevation, min/max °C, weather plan
    ("oslo-no", "Oslo", "NO", "Oslo", 59.9127, 10.7461, "Europe/Oslo", 3600, 23.0, (-4.0, 1.5),
     [3, 3, 71, 73, 71, 3, 2, 45, 45, 3, 1, 0]),
    ("lisbon-pt", "Lisbon", "PT", "Lisbon", 38.7167, -9.1333, "Europe/Lisbon", 0, 45.0, (11.0, 17.5),
     [1, 2, 2, 3, 61, 63, 80, 81, 3, 2, 1, 0]),
]

def rnd(x, n=1):
    return round(x, n)

def dew_point(t, rh):
    """Magnus formula, as Normalize/DewPoint.swift."""
    a, b = 17.62, 243.12
    g = math.log(rh / 100) + a * t / (b + t)
    return b * g / (a - g)

def cloud_cover(code, rng):
    if code == 0:
        return rng.randint(0, 8)
    if code == 1:
        return rng.randint(15, 35)
    if code == 2:
        return rng.randint(45, 70)
    return 100  # overcast, fog, precipitation

def main():
    rng = random.Random(42)
    # The variables added later (hourly pressure_msl, dew_point_2m, uv_index, cloud_cover,
    # visibility; daily wind_gusts_10m_max) draw from a generator of their own, so the
    # values drawn before them stay what they were.
    more = random.Random(4242)
    for slug, name, cc, admin1, lat, lon, tz, off, elev, (tmin, tmax), plan in CITIES:
        folder = ROOT / slug
        folder.mkdir(parents=True, exist_ok=True)
        hour0 = SNAPSHOT - SNAPSHOT % 3600
        local_midnight = SNAPSHOT + off - (SNAPSHOT + off) % 86400 - off
        # sunrise/sunset roughly right for late November at these latitudes
        day_len = 6.4 * 3600 if lat > 55 else 9.7 * 3600
        noon = local_midnight + 12 * 3600 + int(-lon / 15 * 3600 + off) % 3600 - 1800
        def temp_at(t):
            local_h = ((t + off) % 86400) / 3600
            return tmin + (tmax - tmin) * (0.5 + 0.5 * math.cos((local_h - 14.5) / 24 * 2 * math.pi)) + rng.uniform(-0.3, 0.3)
        def is_day(t):
            day_start = (t - local_midnight) // 86400 * 86400 + noon - day_len / 2
            return 1 if day_start <= t < day_start + day_len else 0
        hours = [hour0 + 3600 * i for i in range(48)]
        codes = [plan[(i // 4) % len(plan)] for i in range(48)]
        precip_codes = {51, 53, 55, 61, 63, 65, 71, 73, 75, 80, 81, 82}
        hourly = {
            "time": hours,
            "temperature_2m": [rnd(temp_at(t)) for t in hours],
            "apparent_temperature": [rnd(temp_at(t) - 2.5 - rng.uniform(0, 1.5)) for t in hours],
            "relative_humidity_2m": [rng.randint(70, 96) if c in precip_codes or c in (45, 48) else rng.randint(55, 85) for c in codes],
            "precipitation_probability": [rng.randint(60, 95) if c in precip_codes else rng.randint(0, 25) for c in codes],
            "rain": [rnd(rng.uniform(0.1, 1.6)) if c in {61, 63, 65, 80, 81, 82} else 0.0 for c in codes],
            "showers": [rnd(rng.uniform(0.1, 0.8)) if c in {80, 81} else 0.0 for c in codes],
            "snowfall": [rnd(rng.uniform(0.1, 0.9), 2) if c in {71, 73, 75} else 0.0 for c in codes],
            "weather_code": codes,
            "wind_speed_10m": [rnd(rng.uniform(1.5, 7.5)) for _ in hours],
            "wind_direction_10m": [rng.randint(180, 300) for _ in hours],
            "wind_gusts_10m": [rnd(rng.uniform(5, 13)) for _ in hours],
            "is_day": [is_day(t) for t in hours],
        }
        days = [local_midnight + 86400 * i for i in range(8)]
        daily_codes = [plan[(i * 3) % len(plan)] for i in range(8)]
        daily = {
            "time": days,
            "weather_code": daily_codes,
            "temperature_2m_max": [rnd(tmax + rng.uniform(-1.5, 1.5)) for _ in days],
            "temperature_2m_min": [rnd(tmin + rng.uniform(-1.5, 1.0)) for _ in days],
            "sunrise": [int(d - local_midnight + noon - day_len / 2 + 60 * i) for i, d in enumerate(days)],
            "sunset": [int(d - local_midnight + noon + day_len / 2 - 60 * i) for i, d in enumerate(days)],
            "precipitation_probability_max": [rng.randint(60, 95) if c in precip_codes else rng.randint(0, 30) for c in daily_codes],
            "rain_sum": [rnd(rng.uniform(1, 8)) if c in {61, 63, 65, 80, 81, 82} else 0.0 for c in daily_codes],
            "showers_sum": [rnd(rng.uniform(0.5, 3)) if c in {80, 81} else 0.0 for c in daily_codes],
            "snowfall_sum": [rnd(rng.uniform(0.5, 4), 2) if c in {71, 73, 75} else 0.0 for c in daily_codes],
            "wind_speed_10m_max": [rnd(rng.uniform(5, 10)) for _ in days],
            "wind_direction_10m_dominant": [rng.randint(180, 300) for _ in days],
            "uv_index_max": [rnd(rng.uniform(0.1, 0.6) if lat > 55 else rng.uniform(1.5, 2.8), 2) for _ in days],
        }
        # The daily range contains the hourly temperatures of its day.
        for i, d in enumerate(days):
            temps = [hourly["temperature_2m"][j] for j, t in enumerate(hours) if d <= t < d + 86400]
            if temps:
                daily["temperature_2m_max"][i] = max(daily["temperature_2m_max"][i], max(temps))
                daily["temperature_2m_min"][i] = min(daily["temperature_2m_min"][i], min(temps))
        now = SNAPSHOT - SNAPSHOT % 900
        c0 = codes[0]
        current = {
            "time": now, "interval": 900,
            "temperature_2m": hourly["temperature_2m"][0],
            "relative_humidity_2m": hourly["relative_humidity_2m"][0],
            "apparent_temperature": hourly["apparent_temperature"][0],
            "dew_point_2m": rnd(hourly["temperature_2m"][0] - 2.4),
            "is_day": is_day(now),
            "precipitation": rnd(hourly["rain"][0] + hourly["showers"][0]),
            "rain": hourly["rain"][0], "showers": hourly["showers"][0], "snowfall": hourly["snowfall"][0],
            "weather_code": c0,
            "cloud_cover": 100 if c0 in (3, 45, 48) or c0 in precip_codes else (60 if c0 == 2 else 20),
            "pressure_msl": rnd(1008 + rng.uniform(-6, 10)),
            "wind_speed_10m": hourly["wind_speed_10m"][0],
            "wind_direction_10m": hourly["wind_direction_10m"][0],
            "wind_gusts_10m": hourly["wind_gusts_10m"][0],
            "visibility": 800.0 if c0 in (45, 48) else rnd(rng.uniform(12000, 40000), 0),
            "uv_index": 0.0 if not is_day(now) else rnd(rng.uniform(0.1, 1.8), 2),
        }
        # Pressure drifts from the current reading; the dew point follows from temperature
        # and humidity; UV only by day, higher in Lisbon; fog cuts visibility to hundreds
        # of metres, precipitation to a few kilometres.
        pressure = [current["pressure_msl"]]
        for _ in hours[1:]:
            pressure.append(rnd(min(1040, max(975, pressure[-1] + more.uniform(-0.9, 0.8)))))
        hourly["pressure_msl"] = pressure
        hourly["dew_point_2m"] = [rnd(dew_point(t, rh)) for t, rh in zip(hourly["temperature_2m"], hourly["relative_humidity_2m"])]
        def uv(t):
            day = (t - local_midnight) // 86400
            since_sunrise = t - (noon - day_len / 2 + day * 86400)
            # A sine over the day, peaking near the day's uv_index_max.
            return daily["uv_index_max"][day] * max(0.0, math.sin(math.pi * since_sunrise / day_len)) * more.uniform(0.85, 1.0)
        hourly["uv_index"] = [rnd(uv(t), 2) if is_day(t) else 0.0 for t in hours]
        hourly["cloud_cover"] = [cloud_cover(c, more) for c in codes]
        hourly["visibility"] = [float(more.randint(300, 1500)) if c in (45, 48) else
                                float(more.randint(3000, 12000)) if c in precip_codes else
                                float(more.randint(15000, 40000)) for c in codes]
        # A day's strongest gust: above its strongest wind, and no weaker than its hours'.
        gusts = []
        for i, d in enumerate(days):
            hour_gusts = [g for t, g in zip(hours, hourly["wind_gusts_10m"]) if d <= t < d + 86400]
            gusts.append(rnd(max([daily["wind_speed_10m_max"][i] * more.uniform(1.5, 2.0)] + hour_gusts)))
        daily["wind_gusts_10m_max"] = gusts
        units = lambda keys, unit: {k: unit.get(k, "") for k in keys}
        forecast = {
            "latitude": rnd(lat, 6), "longitude": rnd(lon, 6), "generationtime_ms": 0.1549,
            "utc_offset_seconds": off, "timezone": tz, "timezone_abbreviation": "GMT" if off == 0 else "CET",
            "elevation": elev,
            "current_units": {"time": "unixtime", "interval": "seconds", "temperature_2m": "°C", "relative_humidity_2m": "%",
                              "apparent_temperature": "°C", "dew_point_2m": "°C", "is_day": "", "precipitation": "mm",
                              "rain": "mm", "showers": "mm", "snowfall": "cm", "weather_code": "wmo code", "cloud_cover": "%",
                              "pressure_msl": "hPa", "wind_speed_10m": "m/s", "wind_direction_10m": "°",
                              "wind_gusts_10m": "m/s", "visibility": "m", "uv_index": ""},
            "current": current,
            "hourly_units": {"time": "unixtime", "temperature_2m": "°C", "apparent_temperature": "°C", "relative_humidity_2m": "%",
                             "precipitation_probability": "%", "rain": "mm", "showers": "mm", "snowfall": "cm",
                             "weather_code": "wmo code", "wind_speed_10m": "m/s", "wind_direction_10m": "°",
                             "wind_gusts_10m": "m/s", "is_day": "", "pressure_msl": "hPa", "dew_point_2m": "°C",
                             "uv_index": "", "cloud_cover": "%", "visibility": "m"},
            "hourly": hourly,
            "daily_units": {"time": "unixtime", "weather_code": "wmo code", "temperature_2m_max": "°C", "temperature_2m_min": "°C",
                            "sunrise": "unixtime", "sunset": "unixtime", "precipitation_probability_max": "%", "rain_sum": "mm",
                            "showers_sum": "mm", "snowfall_sum": "cm", "wind_speed_10m_max": "m/s",
                            "wind_direction_10m_dominant": "°", "uv_index_max": "", "wind_gusts_10m_max": "m/s"},
            "daily": daily,
        }
        aqi = 18 if lat > 55 else 34
        air = {
            "latitude": rnd(lat, 1), "longitude": rnd(lon, 1), "generationtime_ms": 0.08, "utc_offset_seconds": off,
            "timezone": tz, "timezone_abbreviation": forecast["timezone_abbreviation"], "elevation": elev,
            "current_units": {"time": "unixtime", "interval": "seconds", "european_aqi": "EAQI", "pm10": "μg/m³",
                              "pm2_5": "μg/m³", "nitrogen_dioxide": "μg/m³", "ozone": "μg/m³", "sulphur_dioxide": "μg/m³",
                              "carbon_monoxide": "μg/m³"},
            "current": {"time": SNAPSHOT - SNAPSHOT % 3600, "interval": 3600, "european_aqi": aqi,
                        "pm10": rnd(rng.uniform(6, 20)), "pm2_5": rnd(rng.uniform(3, 12)),
                        "nitrogen_dioxide": rnd(rng.uniform(8, 30)), "ozone": rnd(rng.uniform(30, 60)),
                        "sulphur_dioxide": rnd(rng.uniform(0.5, 3)), "carbon_monoxide": rnd(rng.uniform(150, 260))},
        }
        geocode = {"results": [{"id": 3143244 if slug == "oslo-no" else 2267057, "name": name, "latitude": lat, "longitude": lon,
                                "elevation": elev, "feature_code": "PPLC", "country_code": cc, "timezone": tz,
                                "population": 580000 if slug == "oslo-no" else 517802,
                                "country": "Norway" if cc == "NO" else "Portugal", "admin1": admin1}],
                   "generationtime_ms": 0.5}
        for fname, body in (("open-meteo-forecast.json", forecast), ("open-meteo-air-quality.json", air),
                            ("open-meteo-geocode.json", geocode)):
            (folder / fname).write_text(json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n")
        print(slug, "current", current["temperature_2m"], "code", c0, "aqi", aqi)

if __name__ == "__main__":
    main()
