#!/usr/bin/env python3
"""Generate a synthetic Isobar benchmark data set (and an equivalent Hugo site).

    python3 Benchmarks/generate.py N --seed S --out DIR
        [--provider snapshot|openweather] [--base-url URL]
        [--requests-per-minute R] [--concurrency C]
        [--hugo-data data|resource] [--no-hugo] [--config-only]
    python3 Benchmarks/generate.py N --out DIR --check     # validate DIR/Samples

Writes, deterministically from the seed (city i is the same whatever N is):

  DIR/Samples/<slug>/onecall.json        One Call 3.0 body (current, 48 hourly, 8 daily,
                                         alerts for ~10% of the cities), compact JSON
  DIR/Samples/<slug>/air_pollution.json  Air Pollution body
  DIR/cities.json                        the city list (slug, name, country, lat, lon,
                                         timezone) - read by standin.py
  DIR/isobar.yml                         Isobar config for the N cities (slugs
                                         city-00000 ...), theme/public/places from the repo
  DIR/hugo/                              an equivalent Hugo site (see README.md)

The weather is a cheap synthetic model, not physics: per city a climate (one of a
handful of real IANA zones with the UTC offset they have on 2026-11-22), a daily
min/max temperature, cloud cover, wind and precipitation events; hourly values follow
a diurnal curve between the daily anchors.  Condition ids, descriptions and icons come
from one table, day/night icon suffixes follow the computed sunrise/sunset, daily icons
are day icons, precipitation only with a high chance, AQI matches the components.
Snapshot instant: 2026-11-22T12:00:00Z, like Samples/.

Standard library only.
"""

import argparse
import calendar
import json
import math
import os
import random
import shutil
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

SNAP = 1795348800                    # 2026-11-22T12:00:00Z
HOURLY_START = SNAP - SNAP % 3600
HOURS = 48
DAYS = 8
MOON_NEW_REF = calendar.timegm((2000, 1, 6, 18, 14, 0))
SYNODIC = 29.530588853 * 86400

# --------------------------------------------------------------------------
# Condition table (OpenWeather ids -> main, description, icon prefix)
# --------------------------------------------------------------------------

CONDITIONS = {
    200: ("Thunderstorm", "thunderstorm with light rain", "11"),
    201: ("Thunderstorm", "thunderstorm with rain", "11"),
    202: ("Thunderstorm", "thunderstorm with heavy rain", "11"),
    211: ("Thunderstorm", "thunderstorm", "11"),
    300: ("Drizzle", "light intensity drizzle", "09"),
    301: ("Drizzle", "drizzle", "09"),
    500: ("Rain", "light rain", "10"),
    501: ("Rain", "moderate rain", "10"),
    502: ("Rain", "heavy intensity rain", "10"),
    520: ("Rain", "light intensity shower rain", "09"),
    521: ("Rain", "shower rain", "09"),
    600: ("Snow", "light snow", "13"),
    601: ("Snow", "snow", "13"),
    611: ("Snow", "sleet", "13"),
    615: ("Snow", "light rain and snow", "13"),
    701: ("Mist", "mist", "50"),
    711: ("Smoke", "smoke", "50"),
    721: ("Haze", "haze", "50"),
    731: ("Dust", "sand/dust whirls", "50"),
    741: ("Fog", "fog", "50"),
    800: ("Clear", "clear sky", "01"),
    801: ("Clouds", "few clouds", "02"),
    802: ("Clouds", "scattered clouds", "03"),
    803: ("Clouds", "broken clouds", "04"),
    804: ("Clouds", "overcast clouds", "04"),
}

# Pre-built condition objects: (id, is_day) -> dict.  Shared between entries; json
# serialises them independently, so sharing is invisible in the output.
COND = {}
for _cid, (_m, _d, _i) in CONDITIONS.items():
    COND[(_cid, True)] = {"id": _cid, "main": _m, "description": _d, "icon": _i + "d"}
    COND[(_cid, False)] = {"id": _cid, "main": _m, "description": _d, "icon": _i + "n"}


def cloud_id(c):
    if c <= 10:
        return 800
    if c <= 25:
        return 801
    if c <= 50:
        return 802
    if c <= 84:
        return 803
    return 804


CLOUD_LABEL = {800: "clear sky", 801: "partly cloudy", 802: "partly cloudy",
               803: "cloudy", 804: "overcast"}

# --------------------------------------------------------------------------
# Climates: real IANA zones with their UTC offset on 2026-11-22 (southern-hemisphere
# zones are on summer time then).  Temperatures deg C (daily min, max), cloud cover %,
# wind m/s, chance of a wet day, wet kind ("rain", "drizzle", "thunder", "snowmix"),
# obscuration id for calm mornings, pressure hPa, typical pollution scale.
# --------------------------------------------------------------------------

CLIMATES = [
    # zone,                 off,    cc,   lat,    lon,   tmin, tmax, cloud, wind, pwet, wet,      obsc, pres, pol
    ("Europe/London",         0,    "GB", 52.2,   -1.6,   5.5, 10.5, 78, 5.0, 0.55, "drizzle", 701, 1008, 1.0),
    ("Europe/Paris",       3600,    "FR", 46.8,    2.4,   4.0,  9.5, 72, 3.6, 0.45, "rain",    701, 1012, 1.2),
    ("Europe/Berlin",      3600,    "DE", 51.8,   11.5,  -2.0,  3.5, 80, 3.8, 0.40, "snowmix", 741, 1015, 1.0),
    ("Europe/Athens",      7200,    "GR", 38.6,   22.8,  10.0, 17.5, 40, 3.0, 0.25, "rain",    701, 1018, 1.3),
    ("Africa/Cairo",       7200,    "EG", 29.5,   31.0,  14.5, 23.5, 12, 3.4, 0.03, "rain",    731, 1016, 2.6),
    ("Africa/Nairobi",    10800,    "KE", -1.0,   36.9,  13.5, 24.5, 55, 3.1, 0.45, "thunder", 701, 1020, 1.4),
    ("Asia/Dubai",        14400,    "AE", 24.6,   55.0,  20.5, 29.0,  8, 3.8, 0.02, "rain",    721, 1015, 2.2),
    ("Asia/Kolkata",      19800,    "IN", 22.0,   80.0,  16.0, 28.0, 20, 2.0, 0.05, "rain",    711, 1014, 3.2),
    ("Asia/Singapore",    28800,    "SG",  1.35, 103.8,  24.5, 31.0, 65, 2.5, 0.80, "thunder", 721, 1009, 1.5),
    ("Asia/Tokyo",        32400,    "JP", 36.0,  138.5,   8.0, 15.5, 35, 2.8, 0.25, "rain",    701, 1019, 1.2),
    ("Australia/Sydney",  39600,    "AU", -33.5, 150.0,  16.5, 25.0, 45, 4.2, 0.30, "thunder", 701, 1013, 0.8),
    ("Pacific/Auckland",  46800,    "NZ", -38.0, 175.5,  12.0, 19.0, 60, 5.5, 0.40, "rain",    701, 1014, 0.6),
    ("America/Sao_Paulo", -10800,   "BR", -22.5, -46.0,  18.0, 27.5, 62, 2.6, 0.55, "thunder", 701, 1013, 1.8),
    ("America/New_York",  -18000,   "US", 40.8,  -75.0,   2.5, 10.0, 50, 4.5, 0.30, "rain",    701, 1017, 1.2),
    ("America/Chicago",   -21600,   "US", 41.5,  -89.0,  -3.5,  4.5, 60, 5.0, 0.35, "snowmix", 741, 1019, 1.1),
    ("America/Denver",    -25200,   "US", 39.5, -105.5,  -6.0,  8.0, 30, 3.5, 0.25, "snowmix", 741, 1021, 0.9),
    ("America/Los_Angeles", -28800, "US", 34.5, -118.5,  10.0, 20.5, 15, 2.4, 0.08, "rain",    711, 1016, 2.0),
    ("America/Anchorage", -32400,   "US", 61.2, -149.9, -12.0, -5.0, 65, 3.0, 0.45, "snowmix", 741, 1005, 0.5),
    ("Atlantic/Reykjavik",    0,    "IS", 64.1,  -21.0,  -2.0,  3.0, 75, 7.5, 0.55, "snowmix", 701, 998,  0.4),
]

ALERT_TEMPLATES = {
    "wind": ("Wind Advisory",
             "Southwest winds 25 to 35 mph with gusts up to 55 mph. Gusty winds could blow "
             "around unsecured objects. Tree limbs could be blown down and a few power outages "
             "may result.", ["Wind"]),
    "rain": ("Heavy rain",
             "Heavy rain with 30 to 50 mm expected within 12 hours. Localised flooding of roads "
             "and low-lying land is possible.", ["Flood", "Rain"]),
    "thunder": ("Thunderstorm warning",
                "Thunderstorms with heavy rain, hail up to 2 cm and gusts up to 70 km/h are "
                "expected. Avoid sheltering under trees.", ["Thunderstorm"]),
    "frost": ("frost",
              "There is a risk of frost (level 1 of 4). Minimum temperature: 0 - -4 \u00b0C; "
              "near ground: -3 - -7 \u00b0C", ["Extreme low temperature"]),
    "snow": ("Winter Weather Advisory",
             "Snow expected. Total snow accumulations of 5 to 10 cm. Plan on slippery road "
             "conditions.", ["Snow/Ice"]),
    "heat": ("High temperature",
             "Maximum temperatures of 30 to 34 \u00b0C expected. Drink plenty of water and "
             "avoid strenuous activity in the afternoon.", ["Extreme high temperature"]),
    "fog": ("Dense Fog Advisory",
            "Visibility one quarter mile or less in dense fog. Hazardous driving conditions "
            "due to low visibility.", ["Fog"]),
    "dust": ("Dust storm",
             "Blowing dust reducing visibility to below 1 km at times. People with respiratory "
             "conditions should stay indoors.", ["Dust"]),
}

SENDERS = {
    "GB": "Met Office", "FR": "M\u00e9t\u00e9o-France", "DE": "Deutscher Wetterdienst",
    "GR": "Hellenic National Meteorological Service", "EG": "Egyptian Meteorological Authority",
    "KE": "Kenya Meteorological Department", "AE": "National Center of Meteorology",
    "IN": "India Meteorological Department", "SG": "Meteorological Service Singapore",
    "JP": "Japan Meteorological Agency", "AU": "Australian Government Bureau of Meteorology",
    "NZ": "MetService", "BR": "Instituto Nacional de Meteorologia", "US": "NWS",
    "IS": "Icelandic Met Office",
}

AQI_BANDS = (
    ("so2", (20, 80, 250, 350)),
    ("no2", (40, 70, 150, 200)),
    ("pm10", (20, 50, 100, 200)),
    ("pm2_5", (10, 25, 50, 75)),
    ("o3", (60, 100, 140, 180)),
    ("co", (4400, 9400, 12400, 15400)),
)


def owm_aqi(comp):
    idx = 1
    for k, bands in AQI_BANDS:
        v = comp[k]
        level = 5
        for i, b in enumerate(bands):
            if v < b:
                level = i + 1
                break
        if level > idx:
            idx = level
    return idx


def r2(x):
    v = round(x, 2)
    iv = int(v)
    return iv if v == iv else v


def sat_vp(t):
    return 6.112 * math.exp(17.62 * t / (243.12 + t))


# --------------------------------------------------------------------------
# One city
# --------------------------------------------------------------------------

def make_city(seed, i):
    rng = random.Random("%s:%d" % (seed, i))
    cl = CLIMATES[rng.randrange(len(CLIMATES))]
    zone, off, cc, blat, blon = cl[0], cl[1], cl[2], cl[3], cl[4]
    lat = round(max(-66.0, min(66.5, blat + rng.uniform(-2.5, 2.5))), 4)
    lon = round(blon + rng.uniform(-3.0, 3.0), 4)
    return {"i": i, "rng": rng, "climate": cl, "slug": "city-%05d" % i,
            "name": "City %d" % i, "country": cc, "lat": lat, "lon": lon,
            "timezone": zone, "offset": off}


def sun_times(lat, lon, local_noon):
    """(sunrise, sunset) unix around the solar noon nearest to local_noon (a UTC instant);
    polar cases clamp to a very short/long day."""
    day = local_noon - local_noon % 86400
    doy = (day // 86400 - calendar.timegm((2026, 1, 1, 0, 0, 0)) // 86400) + 1
    dec = math.radians(-23.44 * math.cos(2 * math.pi / 365.0 * (doy + 10)))
    b = 2 * math.pi * (doy - 81) / 364.0
    eot = 9.87 * math.sin(2 * b) - 7.53 * math.cos(b) - 1.5 * math.sin(b)   # minutes
    noon = day + (720 - 4 * lon - eot) * 60
    while noon - local_noon > 43200:
        noon -= 86400
    while local_noon - noon > 43200:
        noon += 86400
    la = math.radians(lat)
    c = (math.sin(math.radians(-0.833)) - math.sin(la) * math.sin(dec)) / (math.cos(la) * math.cos(dec))
    c = max(-0.99, min(0.99, c))
    half = math.degrees(math.acos(c)) / 15.0 * 3600
    return int(noon - half), int(noon + half)


def generate_city(c):
    """Return (onecall, air_pollution) bodies for a city made by make_city."""
    rng = c["rng"]
    (zone, off, cc, _blat, _blon, tmin0, tmax0, cloud0, wind0, pwet, wetkind,
     obsc, pres0, pol) = c["climate"]
    lat, lon = c["lat"], c["lon"]
    uniform, gauss, random_ = rng.uniform, rng.gauss, rng.random

    # Local day 0 is the local date at the snapshot; days -1 .. DAYS (for the night
    # interpolation at both ends).
    local_day0 = (SNAP + off) // 86400
    ndays = DAYS + 2
    mid = [(local_day0 + d - 1) * 86400 - off for d in range(ndays)]   # local midnights, UTC
    shift = uniform(-3.0, 3.0)
    amp = uniform(0.8, 1.2)
    tmin = []
    tmax = []
    level = gauss(0, 1.5)
    for d in range(ndays):
        level = 0.6 * level + gauss(0, 1.2)
        lo = tmin0 + shift + level
        hi = lo + (tmax0 - tmin0) * amp * uniform(0.75, 1.15)
        tmin.append(lo)
        tmax.append(hi)
    clouds = [max(0, min(100, int(cloud0 + gauss(0, 22)))) for _ in range(ndays)]
    wind = [max(0.4, wind0 * uniform(0.5, 1.6)) for _ in range(ndays)]
    wdeg = rng.randrange(360)
    wdegs = []
    for d in range(ndays):
        wdeg = (wdeg + rng.randrange(-60, 61)) % 360
        wdegs.append(wdeg)
    pres = [int(pres0 + gauss(0, 6)) for _ in range(ndays)]
    spread = uniform(1.0, 6.0)
    sun = [sun_times(lat, lon, m + 43200) for m in mid]

    # Precipitation events: (start, end, kind, rate mm/h, pop)
    events = []
    for d in range(ndays):
        if random_() < pwet:
            start = mid[d] + rng.randrange(0, 22) * 3600
            dur = rng.randrange(2, 10) * 3600
            events.append((start, start + dur, rate_kind(wetkind, tmin[d], tmax[d], rng),
                           uniform(0.2, 4.0) if wetkind != "drizzle" else uniform(0.1, 0.5),
                           round(uniform(0.6, 1.0), 2)))

    def temp_at(t):
        # anchors: min at sunrise+1h, max at local 14:00 of each day
        d = (t - mid[0]) // 86400
        if d < 0:
            d = 0
        if d >= ndays:
            d = ndays - 1
        tmin_t = sun[d][0] + 3600
        tmax_t = mid[d] + 14 * 3600
        if t < tmin_t:
            if d == 0:
                return tmin[0]
            t0, v0, t1, v1 = mid[d - 1] + 14 * 3600, tmax[d - 1], tmin_t, tmin[d]
            x = (t - t0) / (t1 - t0)
            return v0 + (v1 - v0) * math.sin(math.pi / 2 * x)
        if t < tmax_t:
            x = (t - tmin_t) / (tmax_t - tmin_t)
            return tmin[d] + (tmax[d] - tmin[d]) * (1 - math.cos(math.pi * x)) / 2
        if d + 1 >= ndays:
            return tmax[d]
        t0, v0, t1, v1 = tmax_t, tmax[d], sun[d + 1][0] + 3600, tmin[d + 1]
        x = (t - t0) / (t1 - t0)
        return v0 + (v1 - v0) * math.sin(math.pi / 2 * x)

    def event_at(t):
        for ev in events:
            if ev[0] <= t < ev[1]:
                return ev
        return None

    def near_event(t):
        for ev in events:
            if ev[0] - 4 * 3600 <= t < ev[1] + 3 * 3600:
                return True
        return False

    def day_index(t):
        return (t - mid[0]) // 86400

    def is_day(t):
        d = day_index(t)
        r, s = sun[d]
        return r <= t < s

    # ---------------- hourly ----------------
    hourly = []
    noise = gauss(0, 0.3)
    hour_by_day = {}
    for h in range(HOURS + 1):
        t = HOURLY_START + h * 3600
        d = day_index(t)
        noise = 0.7 * noise + gauss(0, 0.25)
        temp = temp_at(t) + noise
        dew = temp - spread - uniform(0, 1.5)
        rh = min(100, int(round(100 * sat_vp(dew) / sat_vp(temp))))
        ws = wind[d] * uniform(0.7, 1.3)
        feels = feels_like(temp, rh, ws)
        ev = event_at(t)
        day = is_day(t)
        cl = clouds[d]
        cl = max(0, min(100, cl + rng.randrange(-15, 16)))
        if ev:
            cl = max(cl, 85)
            pop = ev[4]
            cid, amount, akey = precip_condition(ev, rng)
            vis = rng.randrange(3000, 9000)
        else:
            pop = round(uniform(0.3, 0.55), 2) if near_event(t) else round(uniform(0, 0.15), 2)
            if pop < 0.02:
                pop = 0
            cid, amount, akey = cloud_id(cl), 0, None
            lh = ((t + off) % 86400) // 3600
            if 4 <= lh <= 9 and ws < 2.5 and random_() < 0.35:
                cid = obsc
                vis = rng.randrange(300, 4000)
            else:
                vis = 10000
        if day:
            el = max(0.0, math.sin(math.pi * (t - sun[d][0]) / max(1, sun[d][1] - sun[d][0])))
            uvi = r2(el * (1 - cl / 130.0) * max(0.5, 9 - abs(lat) / 8.0))
        else:
            uvi = 0
        e = {
            "dt": t,
            "temp": r2(temp),
            "feels_like": r2(feels),
            "pressure": pres[d] + rng.randrange(-2, 3),
            "humidity": rh,
            "dew_point": r2(dew),
            "uvi": uvi,
            "clouds": cl,
            "visibility": vis,
            "wind_speed": r2(ws),
            "wind_deg": (wdegs[d] + rng.randrange(-20, 21)) % 360,
            "wind_gust": r2(ws * uniform(1.3, 1.9)),
            "weather": [COND[(cid, day)]],
            "pop": pop,
        }
        if akey:
            e[akey] = {"1h": amount}
        hour_by_day.setdefault(d, []).append(e)
        hourly.append(e)
    cur_src = hourly[0]
    hourly_out = hourly[:HOURS]

    # ---------------- current ----------------
    cdt = SNAP - rng.randrange(60, 840)
    d0 = day_index(cdt)
    current = {
        "dt": cdt,
        "sunrise": sun[d0][0],
        "sunset": sun[d0][1],
        "temp": r2(cur_src["temp"] + uniform(-0.3, 0.3)),
        "feels_like": r2(cur_src["feels_like"] + uniform(-0.3, 0.3)),
        "pressure": cur_src["pressure"],
        "humidity": cur_src["humidity"],
        "dew_point": cur_src["dew_point"],
        "uvi": cur_src["uvi"] if is_day(cdt) else 0,
        "clouds": cur_src["clouds"],
        "visibility": cur_src["visibility"],
        "wind_speed": cur_src["wind_speed"],
        "wind_deg": cur_src["wind_deg"],
    }
    if random_() < 0.6:
        current["wind_gust"] = cur_src["wind_gust"]
    cw = cur_src["weather"][0]
    current["weather"] = [COND[(cw["id"], is_day(cdt))]]
    for k in ("rain", "snow"):
        if k in cur_src:
            current[k] = cur_src[k]
    if current["dew_point"] >= current["temp"]:
        current["dew_point"] = r2(current["temp"] - 0.3)

    # ---------------- daily ----------------
    daily = []
    for d in range(1, DAYS + 1):
        m0 = mid[d]
        noon = m0 + 43200
        hs = hour_by_day.get(d, [])
        day_events = [ev for ev in events if ev[0] < m0 + 86400 and ev[1] > m0]
        lo = min(temp_at(m0), tmin[d], temp_at(m0 + 86400))
        hi = max(temp_at(m0), tmax[d], temp_at(m0 + 86400))
        for e in hs:
            lo = min(lo, e["temp"])
            hi = max(hi, e["temp"])
        tday, tnight = temp_at(noon), temp_at(m0 + 86399)
        teve, tmorn = temp_at(m0 + 18 * 3600), temp_at(m0 + 6 * 3600)
        rain = snow = 0.0
        kinds = set()
        for ev in day_events:
            hrs = (min(ev[1], m0 + 86400) - max(ev[0], m0)) / 3600.0
            k = ev[2]
            kinds.add(k)
            amt = ev[3] * hrs
            if k in ("snow", "sleet"):
                snow += amt
            elif k == "rainsnow":
                rain += amt / 2
                snow += amt / 2
            else:
                rain += amt
        if day_events:
            pop = max(ev[4] for ev in day_events)
            if "thunder" in kinds:
                wid = 200 if rain < 5 else 201
            elif snow > 0 and rain > 0:
                wid = 615
            elif snow > 0:
                wid = 611 if kinds == {"sleet"} else (600 if snow < 3 else 601)
            elif kinds == {"drizzle"}:
                wid = 300 if rain < 1 else 301
            else:
                wid = 500 if rain < 2.5 else (501 if rain < 20 else 502)
        else:
            pop = round(uniform(0, 0.2), 2)
            if pop < 0.02:
                pop = 0
            wid = cloud_id(clouds[d])
        ws = wind[d]
        dew = tday - spread - 0.7
        e = {
            "dt": noon,
            "sunrise": sun[d][0],
            "sunset": sun[d][1],
            "moonrise": 0,
            "moonset": 0,
            "moon_phase": 0,
            "summary": summary(kinds, clouds[d], day_events, m0),
            "temp": {"day": r2(tday), "min": r2(lo), "max": r2(hi), "night": r2(tnight),
                     "eve": r2(teve), "morn": r2(tmorn)},
            "feels_like": {"day": r2(feels_like(tday, 70, ws)), "night": r2(feels_like(tnight, 80, ws)),
                           "eve": r2(feels_like(teve, 75, ws)), "morn": r2(feels_like(tmorn, 85, ws))},
            "pressure": pres[d],
            "humidity": min(100, int(round(100 * sat_vp(dew) / sat_vp(tday)))),
            "dew_point": r2(dew),
            "wind_speed": r2(ws * 1.2),
            "wind_deg": wdegs[d],
            "wind_gust": r2(ws * uniform(1.6, 2.3)),
            "weather": [COND[(wid, True)]],
            "clouds": max(clouds[d], 85) if day_events else clouds[d],
            "pop": pop,
        }
        if rain > 0:
            e["rain"] = r2(max(0.01, rain))
        if snow > 0:
            e["snow"] = r2(max(0.01, snow))
        e["uvi"] = r2(max(0.0, (1 - clouds[d] / 130.0) * max(0.5, 9 - abs(lat) / 8.0)))
        phase = ((noon - MOON_NEW_REF) % SYNODIC) / SYNODIC
        mrise = m0 + int(((6 + phase * 24) % 24) * 3600) + rng.randrange(0, 1800)
        mset = m0 + int(((18 + phase * 24) % 24) * 3600) + rng.randrange(0, 1800)
        e["moonrise"] = mrise
        e["moonset"] = mset
        e["moon_phase"] = r2(round(phase, 2) % 1.0)
        daily.append(e)

    body = {"lat": lat, "lon": lon, "timezone": zone, "timezone_offset": off,
            "current": current, "hourly": hourly_out, "daily": daily}

    # ---------------- alerts (~10%) ----------------
    if random_() < 0.10:
        keys = alert_keys(wetkind, tmin0, tmax0, obsc)
        n = 1 if random_() < 0.65 else 2
        alerts = []
        for k in rng.sample(keys, min(n, len(keys))):
            event, desc, tags = ALERT_TEMPLATES[k]
            start = SNAP - rng.randrange(1, 12) * 3600
            alerts.append({"sender_name": SENDERS[cc], "event": event, "start": start,
                           "end": SNAP + rng.randrange(3, 36) * 3600,
                           "description": desc, "tags": tags})
        body["alerts"] = alerts

    # ---------------- air pollution ----------------
    s = pol * uniform(0.5, 1.6)
    comp = {
        "co": r2(uniform(180, 320) * s), "no": r2(uniform(0.1, 6) * s),
        "no2": r2(uniform(5, 40) * s), "o3": r2(uniform(20, 90)),
        "so2": r2(uniform(1, 10) * s), "pm2_5": r2(uniform(2, 18) * s),
        "pm10": r2(uniform(4, 30) * s), "nh3": r2(uniform(0.2, 4) * s),
    }
    air = {"coord": {"lon": lon, "lat": lat},
           "list": [{"main": {"aqi": owm_aqi(comp)}, "components": comp, "dt": SNAP}]}
    return body, air


def rate_kind(wetkind, lo, hi, rng):
    if wetkind == "snowmix":
        mean = (lo + hi) / 2
        if hi <= 0.5:
            return "snow"
        if mean < 1.5:
            return rng.choice(("snow", "sleet", "rainsnow"))
        return "rain"
    if wetkind == "thunder":
        return "thunder" if rng.random() < 0.6 else "shower"
    if wetkind == "drizzle":
        return "drizzle" if rng.random() < 0.6 else "rain"
    return "rain" if rng.random() < 0.8 else "shower"


def precip_condition(ev, rng):
    """(condition id, amount in the last hour, "rain"|"snow") for an hour in an event."""
    kind, rate = ev[2], ev[3] * rng.uniform(0.5, 1.5)
    amount = r2(max(0.05, rate))
    if kind == "snow":
        return (600 if rate < 1.5 else 601), amount, "snow"
    if kind == "sleet":
        return 611, amount, "snow"
    if kind == "rainsnow":
        return 615, amount, "snow"
    if kind == "thunder":
        return (200 if rate < 1 else (201 if rate < 4 else 202)), amount, "rain"
    if kind == "shower":
        return (520 if rate < 2 else 521), amount, "rain"
    if kind == "drizzle":
        return (300 if rate < 0.3 else 301), amount, "rain"
    return (500 if rate < 1 else (501 if rate < 4 else 502)), amount, "rain"


PRECIP_WORD = {"rain": "rain", "shower": "rain showers", "drizzle": "drizzle",
               "thunder": "thunderstorms", "snow": "snow", "sleet": "sleet",
               "rainsnow": "rain and snow"}


def summary(kinds, cl, day_events, m0):
    label = CLOUD_LABEL[cloud_id(cl)]
    if not day_events:
        return "There will be %s today" % label
    word = PRECIP_WORD[sorted(kinds)[0]]
    if all(ev[1] <= m0 + 12 * 3600 for ev in day_events):
        return ("The day will start with %s through the late morning hours, transitioning to %s"
                % (word, label))
    return "Expect a day of %s with %s" % (label, word)


def alert_keys(wetkind, tmin0, tmax0, obsc):
    keys = ["wind"]
    if wetkind == "thunder":
        keys.append("thunder")
    if wetkind in ("rain", "drizzle", "thunder"):
        keys.append("rain")
    if wetkind == "snowmix" or tmin0 < 2:
        keys += ["snow", "frost"]
    if tmax0 > 27:
        keys.append("heat")
    if obsc == 741:
        keys.append("fog")
    if obsc == 731:
        keys.append("dust")
    return keys


def feels_like(t, rh, ws):
    if t <= 10:
        v = ws * 3.6
        if v < 4.8:
            return t
        v16 = v ** 0.16
        return 13.12 + 0.6215 * t - 11.37 * v16 + 0.3965 * t * v16
    if t < 26:
        return t + 0.1 * (rh / 100.0 * sat_vp(t) - 10.0) - 0.15 * ws
    return t + (rh - 40) * 0.05 * (t - 26) / 4 + 1.0


# --------------------------------------------------------------------------
# Validation (--check): the consistency rules the generator promises
# --------------------------------------------------------------------------

def check(out):
    samples = os.path.join(out, "Samples")
    with open(os.path.join(out, "cities.json"), encoding="utf-8") as f:
        cities = json.load(f)
    errors = []
    n_alerts = 0

    def err(slug, msg):
        if len(errors) < 50:
            errors.append("%s: %s" % (slug, msg))
        else:
            errors.append(None)

    for city in cities:
        slug = city["slug"]
        with open(os.path.join(samples, slug, "onecall.json"), encoding="utf-8") as f:
            oc = json.load(f)
        with open(os.path.join(samples, slug, "air_pollution.json"), encoding="utf-8") as f:
            ap = json.load(f)
        off = oc["timezone_offset"]
        H, D, cur = oc["hourly"], oc["daily"], oc["current"]
        if (oc["lat"], oc["lon"], oc["timezone"]) != (city["lat"], city["lon"], city["timezone"]):
            err(slug, "coordinates or zone differ from cities.json")
        if len(H) != HOURS or len(D) != DAYS:
            err(slug, "%d hourly, %d daily" % (len(H), len(D)))
        if H[0]["dt"] != HOURLY_START or any(b["dt"] - a["dt"] != 3600 for a, b in zip(H, H[1:])):
            err(slug, "hourly times")
        if not SNAP - 900 <= cur["dt"] < SNAP:
            err(slug, "current.dt")
        sun = {}
        for i, e in enumerate(D):
            lt = e["dt"] + off
            if lt % 86400 != 43200 or lt // 86400 != (SNAP + off) // 86400 + i:
                err(slug, "daily[%d] is not local noon of day %d" % (i, i))
            sun[lt // 86400] = (e["sunrise"], e["sunset"])
            m0 = e["dt"] - 43200
            if not m0 <= e["sunrise"] < e["sunset"] < m0 + 86400:
                err(slug, "daily[%d] sunrise/sunset outside the local day" % i)
            if not e["weather"][0]["icon"].endswith("d"):
                err(slug, "daily[%d] night icon" % i)
            t = e["temp"]
            for k in ("day", "night", "eve", "morn"):
                if not t["min"] <= t[k] <= t["max"]:
                    err(slug, "daily[%d] temp.%s outside min..max" % (i, k))
            for h in H:
                if m0 <= h["dt"] < m0 + 86400 and not t["min"] <= h["temp"] <= t["max"]:
                    err(slug, "hourly %d temp outside daily[%d] min..max" % (h["dt"], i))
            if ("rain" in e or "snow" in e) and e["pop"] < 0.5:
                err(slug, "daily[%d] precipitation with pop %s" % (i, e["pop"]))
        for where, e in [("current", cur)] + [("hourly", h) for h in H]:
            rise, sset = sun[(e["dt"] + off) // 86400]
            day = rise <= e["dt"] < sset
            for w in e["weather"]:
                main, desc, icon = CONDITIONS[w["id"]]
                if (w["main"], w["description"], w["icon"][:2]) != (main, desc, icon):
                    err(slug, "%s %d condition %s inconsistent" % (where, e["dt"], w))
                if w["icon"][-1] != ("d" if day else "n"):
                    err(slug, "%s %d icon %s vs sun" % (where, e["dt"], w["icon"]))
            if e["dew_point"] >= e["temp"]:
                err(slug, "%s %d dew point >= temperature" % (where, e["dt"]))
            if not day and e["uvi"] != 0:
                err(slug, "%s %d UV at night" % (where, e["dt"]))
            if where == "hourly" and ("rain" in e or "snow" in e) and e["pop"] < 0.5:
                err(slug, "hourly %d precipitation with pop %s" % (e["dt"], e["pop"]))
        for a in oc.get("alerts", []):
            if not a["start"] <= SNAP < a["end"]:
                err(slug, "alert not active")
        n_alerts += bool(oc.get("alerts"))
        comp = ap["list"][0]["components"]
        if owm_aqi(comp) != ap["list"][0]["main"]["aqi"]:
            err(slug, "AQI does not match components")
    shown = [e for e in errors if e]
    for e in shown:
        print("  -", e)
    if len(errors) > len(shown):
        print("  ... %d more" % (len(errors) - len(shown)))
    print("%d cities (%d with alerts): %s" % (len(cities), n_alerts,
                                             "%d problem(s)" % len(errors) if errors else "all checks passed"))
    return not errors


# --------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------

DUMP = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def write_text(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def yaml_str(s):
    return json.dumps(s, ensure_ascii=False)   # a JSON string is a valid YAML flow scalar


def write_config(out, cities, args):
    lines = [
        "# Generated by Benchmarks/generate.py %d --seed %s (do not edit)" % (len(cities), args.seed),
        "title: Isobar Bench",
        "base_url: https://bench.example.org/",
        "language: en",
        "units: metric",
        "provider: %s" % args.provider,
        "snapshot_dir: Samples",
    ]
    if args.provider == "openweather":
        lines.append("openweather: { base_url: %s, requests_per_minute: %d, concurrency: %d }"
                     % (args.base_url, args.requests_per_minute, args.concurrency))
    lines += [
        "cache: { dir: .cache }",
        "templates: %s" % yaml_str(os.path.join(REPO, "Templates")),
        "public: %s" % yaml_str(os.path.join(REPO, "Public")),
        "places: %s" % yaml_str(os.path.join(REPO, "Data", "places.json")),
        "output: _site",
        "cities:",
    ]
    for c in cities:
        lines.append("  - { name: %s, country: %s, lat: %s, lon: %s, slug: %s }"
                     % (yaml_str(c["name"]), c["country"], repr(c["lat"]), repr(c["lon"]), c["slug"]))
    write_text(os.path.join(out, "isobar.yml"), "\n".join(lines) + "\n")
    manifest = [{k: c[k] for k in ("slug", "name", "country", "lat", "lon", "timezone")} for c in cities]
    write_text(os.path.join(out, "cities.json"), DUMP(manifest) + "\n")


def main():
    ap = argparse.ArgumentParser(description="Generate a synthetic Isobar/Hugo benchmark data set.")
    ap.add_argument("n", type=int, help="number of cities")
    ap.add_argument("--seed", default="1", help="seed (any string; default 1)")
    ap.add_argument("--out", required=True, help="output folder (created; existing generated parts replaced)")
    ap.add_argument("--provider", choices=("snapshot", "openweather"), default="snapshot")
    ap.add_argument("--base-url", default="https://api.openweathermap.org",
                    help="openweather.base_url (with --provider openweather)")
    ap.add_argument("--requests-per-minute", type=int, default=600)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--hugo-data", choices=("data", "resource"), default="data",
                    help="Hugo gets each city's JSON as data/cities/<slug>.json (data, default) "
                         "or as a page resource content/<slug>/onecall.json (resource)")
    ap.add_argument("--no-hugo", action="store_true", help="skip the Hugo site")
    ap.add_argument("--config-only", action="store_true",
                    help="only (re)write isobar.yml and cities.json")
    ap.add_argument("--check", action="store_true",
                    help="validate the samples in --out (written earlier) and exit")
    args = ap.parse_args()
    if args.check:
        sys.exit(0 if check(os.path.abspath(args.out)) else 1)

    t0 = time.monotonic()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    cities = [make_city(args.seed, i) for i in range(args.n)]
    # Coordinates identify a city at the stand-in (lat/lon formatted %.4f): keep them unique.
    seen = set()
    for c in cities:
        while ("%.4f,%.4f" % (c["lat"], c["lon"])) in seen:
            c["lon"] = round(c["lon"] + 0.0001, 4)
        seen.add("%.4f,%.4f" % (c["lat"], c["lon"]))
    write_config(out, cities, args)
    if args.config_only:
        print("wrote %s" % os.path.join(out, "isobar.yml"))
        return

    samples = os.path.join(out, "Samples")
    shutil.rmtree(samples, ignore_errors=True)
    os.makedirs(samples)
    hugo = os.path.join(out, "hugo")
    if not args.no_hugo:
        shutil.rmtree(hugo, ignore_errors=True)
        import hugo_site                      # Benchmarks/hugo_site.py
        hugo_site.write_skeleton(hugo, REPO, args.hugo_data)
    summaries = []
    for c in cities:
        onecall, air = generate_city(c)
        d = os.path.join(samples, c["slug"])
        os.mkdir(d)
        oc_path = os.path.join(d, "onecall.json")
        ap_path = os.path.join(d, "air_pollution.json")
        write_text(oc_path, DUMP(onecall))
        write_text(ap_path, DUMP(air))
        if not args.no_hugo:
            hugo_site.write_city(hugo, c, len(summaries), oc_path, ap_path, args.hugo_data)
        summaries.append(len(onecall.get("alerts", ())))
    n_alerts = sum(1 for a in summaries if a)
    print("generated %d cities (%d with alerts) in %s in %.1f s%s"
          % (args.n, n_alerts, out, time.monotonic() - t0,
             "" if args.no_hugo else "; Hugo site in %s (%s mode)" % (hugo, args.hugo_data)))


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
