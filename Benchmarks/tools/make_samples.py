#!/usr/bin/env python3
"""Deterministic generator for recorded OpenWeather API sample responses.

Writes Samples/<city-slug>/{onecall,air_pollution,geocode,weather,forecast}.json
as raw response bodies shaped exactly like OpenWeather sends them:

  * One Call 3.0        /data/3.0/onecall   (with minutely)        onecall.json
  * Current Weather 2.5 /data/2.5/weather                           weather.json   (Lod only)
  * 5 day / 3 hour 2.5  /data/2.5/forecast                          forecast.json  (Lod only)
  * Air Pollution       /data/2.5/air_pollution                     air_pollution.json
  * Geocoding           /geo/1.0/direct                             geocode.json   (not Lod)

Snapshot instant: 2026-11-22T12:00:00Z (unix 1795348800).

The weather itself is synthesised from a small physical-ish model (diurnal
temperature curve anchored at sunrise / early afternoon, dew-point spread,
Magnus humidity, wind chill / heat index feels-like, NOAA solar position for
sunrise/sunset/UV, mean-lunation moon phase with a crude moon altitude model
for moonrise/moonset) plus hand-written per-city scenarios (precipitation
events, mist/fog, alerts).  Everything is seeded, so re-running produces
byte-identical output.

Usage:
    python3 Benchmarks/tools/make_samples.py            # write + validate
    python3 Benchmarks/tools/make_samples.py --check    # validate existing files only
    python3 Benchmarks/tools/make_samples.py --out DIR  # write somewhere else

Standard library only.
"""

import argparse
import calendar
import json
import math
import os
import random
import sys
from datetime import datetime, timezone

# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------

SNAP = 1795348800                     # 2026-11-22T12:00:00Z, the "fetch" instant
HOURLY_START = SNAP - SNAP % 3600     # top of the current UTC hour
HOURS = 48
DAYS = 8
FORECAST_STEP = 3 * 3600
FORECAST_START = SNAP - SNAP % FORECAST_STEP + FORECAST_STEP   # next 3h boundary *after* SNAP
FORECAST_COUNT = 40
LOCAL_DAY0 = (2026, 11, 22)           # "today" in every city's local time at SNAP

# Moon phase: mean lunation anchored at the astronomical new moon of
# 2000-01-06 18:14 UTC.  This gives the real 2026 phases (full moon on
# 2026-11-24, last quarter ~2026-12-01).  Swap the anchor here if a
# different (fictional) calendar is wanted.
MOON_NEW_REF = calendar.timegm((2000, 1, 6, 18, 14, 0))
SYNODIC_DAYS = 29.530588853

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# --------------------------------------------------------------------------
# OpenWeather condition table (subset actually used + neighbours)
# --------------------------------------------------------------------------

CONDITIONS = {
    200: ("Thunderstorm", "thunderstorm with light rain", "11"),
    201: ("Thunderstorm", "thunderstorm with rain", "11"),
    202: ("Thunderstorm", "thunderstorm with heavy rain", "11"),
    210: ("Thunderstorm", "light thunderstorm", "11"),
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
    616: ("Snow", "rain and snow", "13"),
    701: ("Mist", "mist", "50"),
    721: ("Haze", "haze", "50"),
    741: ("Fog", "fog", "50"),
    800: ("Clear", "clear sky", "01"),
    801: ("Clouds", "few clouds", "02"),
    802: ("Clouds", "scattered clouds", "03"),
    803: ("Clouds", "broken clouds", "04"),
    804: ("Clouds", "overcast clouds", "04"),
}


def condition(cid, is_day):
    main, desc, icon = CONDITIONS[cid]
    return {"id": cid, "main": main, "description": desc,
            "icon": icon + ("d" if is_day else "n")}


def cloud_condition_id(clouds):
    if clouds <= 10:
        return 800
    if clouds <= 25:
        return 801
    if clouds <= 50:
        return 802
    if clouds <= 84:
        return 803
    return 804


# --------------------------------------------------------------------------
# Astronomy (NOAA solar position; crude moon)
# --------------------------------------------------------------------------

def solar(t):
    """Return (declination rad, equation of time minutes, ecliptic longitude deg, obliquity rad)."""
    jd = t / 86400.0 + 2440587.5
    T = (jd - 2451545.0) / 36525.0
    L0 = (280.46646 + T * (36000.76983 + T * 0.0003032)) % 360.0
    M = 357.52911 + T * (35999.05029 - 0.0001537 * T)
    e = 0.016708634 - T * (0.000042037 + 0.0000001267 * T)
    Mr = math.radians(M)
    C = (math.sin(Mr) * (1.914602 - T * (0.004817 + 0.000014 * T))
         + math.sin(2 * Mr) * (0.019993 - 0.000101 * T)
         + math.sin(3 * Mr) * 0.000289)
    true_long = L0 + C
    omega = 125.04 - 1934.136 * T
    lam = true_long - 0.00569 - 0.00478 * math.sin(math.radians(omega))
    eps0 = 23 + (26 + (21.448 - T * (46.815 + T * (0.00059 - T * 0.001813))) / 60) / 60
    eps = math.radians(eps0 + 0.00256 * math.cos(math.radians(omega)))
    dec = math.asin(math.sin(eps) * math.sin(math.radians(lam)))
    y = math.tan(eps / 2) ** 2
    L0r = math.radians(L0)
    eqt = 4 * math.degrees(y * math.sin(2 * L0r) - 2 * e * math.sin(Mr)
                           + 4 * e * y * math.sin(Mr) * math.cos(2 * L0r)
                           - 0.5 * y * y * math.sin(4 * L0r) - 1.25 * e * e * math.sin(2 * Mr))
    return dec, eqt, lam, eps


def sun_hour_angle_deg(t, lon):
    _, eqt, _, _ = solar(t)
    minutes = (t % 86400) / 60.0
    tst = (minutes + eqt + 4 * lon) % 1440
    return tst / 4.0 - 180.0


def sun_elevation(t, lat, lon):
    dec, _, _, _ = solar(t)
    ha = math.radians(sun_hour_angle_deg(t, lon))
    la = math.radians(lat)
    s = math.sin(la) * math.sin(dec) + math.cos(la) * math.cos(dec) * math.cos(ha)
    return math.degrees(math.asin(max(-1.0, min(1.0, s))))


def moon_phase(t):
    return ((t - MOON_NEW_REF) / 86400.0 / SYNODIC_DAYS) % 1.0


def moon_elevation(t, lat, lon):
    """Very rough: the moon sits phase*360 deg east of the sun on the ecliptic."""
    _, _, lam, eps = solar(t)
    p = moon_phase(t)
    dec = math.asin(math.sin(eps) * math.sin(math.radians(lam + p * 360.0)))
    ha = math.radians(sun_hour_angle_deg(t, lon) - p * 360.0)
    la = math.radians(lat)
    s = math.sin(la) * math.sin(dec) + math.cos(la) * math.cos(dec) * math.cos(ha)
    return math.degrees(math.asin(max(-1.0, min(1.0, s))))


def crossings(f, threshold, t0, t1, step):
    """Return [(t, 'up'|'down')] where f crosses threshold within [t0, t1)."""
    out = []
    prev_t, prev_v = t0, f(t0) - threshold
    t = t0 + step
    while t <= t1:
        v = f(t) - threshold
        if (prev_v < 0) != (v < 0):
            lo, hi, vlo = prev_t, t, prev_v
            while hi - lo > 1:
                mid = (lo + hi) / 2.0
                vm = f(mid) - threshold
                if (vm < 0) == (vlo < 0):
                    lo, vlo = mid, vm
                else:
                    hi = mid
            tc = int(round(hi))
            if t0 <= tc < t1:
                out.append((tc, "up" if v >= 0 else "down"))
        prev_t, prev_v = t, v
        t += step
    return out


# --------------------------------------------------------------------------
# Meteorology helpers
# --------------------------------------------------------------------------

def sat_vp(t):
    return 6.112 * math.exp(17.62 * t / (243.12 + t))


def rel_humidity(t, td):
    return 100.0 * sat_vp(td) / sat_vp(t)


def wind_chill(t, ws):
    v = ws * 3.6
    if v < 4.8:
        return t
    v16 = v ** 0.16
    return 13.12 + 0.6215 * t - 11.37 * v16 + 0.3965 * t * v16


def heat_index(t, rh):
    f = t * 9 / 5 + 32
    hi = (-42.379 + 2.04901523 * f + 10.14333127 * rh - 0.22475541 * f * rh
          - 6.83783e-3 * f * f - 5.481717e-2 * rh * rh + 1.22874e-3 * f * f * rh
          + 8.5282e-4 * f * rh * rh - 1.99e-6 * f * f * rh * rh)
    return (hi - 32) * 5 / 9


def mild_feels(t, rh, ws):
    e = rh / 100.0 * sat_vp(t)
    return t + 0.1 * (e - 10.0) - 0.15 * ws


def feels_like(t, rh, ws):
    if t <= 10:
        return wind_chill(t, ws)
    if t < 15:
        w = (t - 10) / 5.0
        return (1 - w) * wind_chill(t, ws) + w * mild_feels(t, rh, ws)
    if t < 24:
        return mild_feels(t, rh, ws)
    if t < 27:
        w = (t - 24) / 3.0
        return (1 - w) * mild_feels(t, rh, ws) + w * max(t, heat_index(t, rh))
    return max(t, heat_index(t, rh))


def c_to_f(c):
    return c * 9.0 / 5.0 + 32.0


MPS_TO_MPH = 2.2369362920544


# --------------------------------------------------------------------------
# Time helpers
# --------------------------------------------------------------------------

def local_midnight_utc(offset, day_index):
    y, m, d = LOCAL_DAY0
    return calendar.timegm((y, m, d, 0, 0, 0)) + day_index * 86400 - offset


def parse_local(s, offset):
    """'2026-11-22 10:00' in city-local time -> unix."""
    dt = datetime.strptime(s, "%Y-%m-%d %H:%M")
    return calendar.timegm(dt.timetuple()) - offset


def local_hour(t, offset):
    return ((t + offset) % 86400) / 3600.0


def local_day_index(t, offset):
    return int((t - local_midnight_utc(offset, 0)) // 86400)


def ar1(rng, n, phi, sigma):
    out, v = [], rng.gauss(0, sigma)
    s = math.sqrt(1 - phi * phi)
    for _ in range(n):
        out.append(v)
        v = phi * v + s * rng.gauss(0, sigma)
    return out


def diurnal_interp(anchors, t):
    """Anchors are (t, value, kind) with kind 'min' (after sunrise) or 'max'
    (early afternoon).  Rising segments follow a half cosine; falling
    segments drop quickly after the afternoon peak and level off towards
    dawn, like a real nocturnal cooling curve."""
    for (t0, v0, k0), (t1, v1, _) in zip(anchors, anchors[1:]):
        if t0 <= t <= t1:
            x = (t - t0) / float(t1 - t0)
            if k0 == "max":
                w = math.sin(math.pi / 2 * x) ** 1.3
            else:
                w = (1 - math.cos(math.pi * x)) / 2
            return v0 + (v1 - v0) * w
    raise ValueError("time outside anchors")


def linear_interp(anchors, t):
    for (t0, v0), (t1, v1) in zip(anchors, anchors[1:]):
        if t0 <= t <= t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    raise ValueError("time outside anchors")


def r2(x):
    return round(x + 0.0, 2)


# --------------------------------------------------------------------------
# City scenarios.  Per-day lists are indexed by local day -1 .. 8 (10 values).
# Temperatures in deg C, wind in m/s; imperial conversion happens at output.
# --------------------------------------------------------------------------

CITIES = [
    dict(
        slug="london-gb", name="London", country="GB", state="England",
        lat=51.5073, lon=-0.1276, tz="Europe/London", offset=0, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[7.5, 8.2, 8.6, 7.4, 6.8, 7.9, 8.8, 8.1, 7.6, 7.9],
        tmax=[10.4, 10.6, 10.9, 10.2, 9.8, 10.7, 11.0, 10.3, 9.9, 10.2],
        tmax_hour=14.0,
        clouds=[95, 92, 85, 70, 80, 75, 90, 60, 65, 70],
        wind=[5.0, 4.6, 5.5, 4.2, 5.8, 4.5, 3.8, 5.2, 4.8, 4.4],
        wind_deg=[230, 225, 215, 250, 240, 260, 200, 235, 250, 245],
        pressure=[1008, 1006, 1001, 1007, 1004, 1010, 1012, 1005, 1009, 1011],
        spread=(0.8, 2.2), gust_factor=(1.45, 1.9), bg_pop=True,
        events=[
            ("2026-11-22 08:00", "2026-11-22 15:00", "drizzle", 0.28, 0.86),
            ("2026-11-23 16:00", "2026-11-23 23:00", "rain", 1.6, 0.92),
            ("2026-11-25 11:00", "2026-11-25 14:00", "shower", 0.9, 0.62),
            ("2026-11-27 05:00", "2026-11-27 12:00", "rain", 1.2, 0.80),
        ],
        obscuration=[("2026-11-24 06:00", "2026-11-24 09:00", 701)],
        current=dict(dt=SNAP - 600, gust=True, weather=[300, 701], visibility=3700),
    ),
    dict(
        slug="paris-fr", name="Paris", country="FR", state="Ile-de-France",
        lat=48.8589, lon=2.3200, tz="Europe/Paris", offset=3600, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[5.4, 6.1, 5.7, 4.9, 5.8, 6.6, 6.0, 5.2, 5.5, 6.0],
        tmax=[9.1, 9.6, 8.8, 8.4, 9.9, 10.2, 9.5, 8.9, 9.2, 9.6],
        tmax_hour=14.5,
        clouds=[90, 88, 95, 60, 85, 70, 55, 80, 75, 70],
        wind=[3.5, 3.2, 4.6, 3.0, 4.1, 3.6, 2.8, 3.9, 3.4, 3.1],
        wind_deg=[200, 210, 225, 260, 230, 245, 190, 215, 230, 240],
        pressure=[1011, 1010, 1005, 1012, 1009, 1014, 1016, 1010, 1012, 1013],
        spread=(0.9, 2.6), gust_factor=(1.4, 1.9), bg_pop=True,
        events=[
            ("2026-11-23 09:00", "2026-11-23 15:00", "rain", 1.2, 0.88),
            ("2026-11-25 18:00", "2026-11-25 23:00", "rain", 0.7, 0.71),
            ("2026-11-28 13:00", "2026-11-28 17:00", "rain", 0.5, 0.60),
        ],
        obscuration=[("2026-11-23 06:00", "2026-11-23 08:00", 701),
                     ("2026-11-24 07:00", "2026-11-24 09:00", 701)],
        current=dict(dt=SNAP - 420, gust=False),
    ),
    dict(
        slug="rome-it", name="Rome", country="IT", state="Lazio",
        lat=41.8933, lon=12.4829, tz="Europe/Rome", offset=3600, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[11.8, 12.2, 12.5, 11.9, 12.8, 13.1, 12.4, 11.7, 12.0, 12.3],
        tmax=[16.4, 16.8, 17.0, 16.2, 16.6, 15.4, 16.1, 16.9, 16.5, 16.3],
        tmax_hour=14.0,
        clouds=[15, 10, 20, 30, 45, 80, 60, 25, 15, 20],
        wind=[2.6, 2.4, 2.9, 2.2, 3.1, 4.4, 3.5, 2.7, 2.5, 2.6],
        wind_deg=[20, 30, 350, 10, 150, 190, 220, 330, 20, 40],
        pressure=[1021, 1022, 1020, 1018, 1015, 1011, 1014, 1019, 1021, 1022],
        spread=(2.0, 6.5), gust_factor=(1.3, 1.8), bg_pop=False,
        events=[
            ("2026-11-26 10:00", "2026-11-26 16:00", "rain", 1.4, 0.74),
        ],
        obscuration=[("2026-11-23 06:00", "2026-11-23 08:00", 701)],
        current=dict(dt=SNAP - 300, gust=False),
    ),
    dict(
        slug="new-york-us", name="New York", country="US", state="New York",
        lat=40.7128, lon=-74.0060, tz="America/New_York", offset=-18000, units="imperial",
        files=("onecall", "air_pollution", "geocode"),
        # deg C internally: ~38-50 F
        tmin=[6.0, 6.5, 3.4, 3.9, 5.5, 7.2, 4.6, 3.5, 4.0, 5.0],
        tmax=[12.5, 9.6, 7.8, 9.9, 10.8, 8.9, 8.3, 9.4, 9.7, 10.0],
        tmax_hour=14.0,
        clouds=[90, 45, 20, 35, 70, 85, 40, 25, 30, 50],
        wind=[9.0, 11.0, 6.0, 4.5, 5.0, 6.5, 5.5, 4.8, 4.3, 4.6],
        wind_deg=[250, 305, 315, 290, 220, 200, 300, 310, 280, 270],
        pressure=[998, 1006, 1016, 1022, 1019, 1012, 1014, 1020, 1023, 1021],
        spread=(5.0, 10.5), gust_factor=(1.55, 1.8), bg_pop=False,
        events=[
            ("2026-11-22 01:00", "2026-11-22 04:00", "rain", 2.0, 0.90),   # frontal rain before the snapshot
            ("2026-11-26 03:00", "2026-11-26 11:00", "rain", 1.5, 0.82),
        ],
        obscuration=[],
        current=dict(dt=SNAP - 300, gust=True),
        alerts=[dict(
            sender_name="NWS New York City - Upton (New York)",
            event="Wind Advisory",
            start=SNAP - 2 * 3600,        # 5 AM EST
            end=SNAP + 11 * 3600,         # 6 PM EST
            description=(
                "...WIND ADVISORY IN EFFECT UNTIL 6 PM EST THIS EVENING...\n"
                "* WHAT...Northwest winds 20 to 30 mph with gusts up to 50 mph\n"
                "expected.\n"
                "* WHERE...New York (Manhattan), Bronx, Kings (Brooklyn), Queens,\n"
                "and Richmond (Staten Island) Counties.\n"
                "* WHEN...Until 6 PM EST this evening.\n"
                "* IMPACTS...Gusty winds will blow around unsecured objects.\n"
                "Tree limbs could be blown down and a few power outages may\n"
                "result."),
            tags=["Wind"],
        )],
    ),
    dict(
        slug="berlin-de", name="Berlin", country="DE", state="Berlin",
        lat=52.5170, lon=13.3889, tz="Europe/Berlin", offset=3600, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[-1.0, -2.4, -1.2, 0.2, 0.6, -0.8, 0.4, 1.0, 0.5, 0.3],
        tmax=[2.6, 1.4, 3.1, 4.4, 4.8, 3.5, 4.2, 5.0, 4.6, 4.1],
        tmax_hour=14.0,
        clouds=[90, 95, 40, 85, 75, 90, 80, 85, 70, 75],
        wind=[4.0, 3.6, 2.2, 4.8, 3.9, 5.1, 4.4, 3.7, 3.5, 3.2],
        wind_deg=[60, 80, 110, 240, 260, 290, 270, 250, 240, 230],
        pressure=[1018, 1015, 1020, 1008, 1006, 1012, 1010, 1013, 1015, 1016],
        spread=(0.8, 2.4), gust_factor=(1.45, 1.9), bg_pop=True,
        events=[
            ("2026-11-22 10:00", "2026-11-22 16:00", "snow", 0.45, 0.90),
            ("2026-11-23 17:00", "2026-11-23 21:00", "rainsnow", 0.9, 0.78),
            ("2026-11-25 06:00", "2026-11-25 10:00", "sleet", 0.6, 0.70),
            ("2026-11-27 02:00", "2026-11-27 07:00", "snow", 0.4, 0.66),
        ],
        obscuration=[("2026-11-23 05:00", "2026-11-23 09:00", 741)],
        current=dict(dt=SNAP - 660, gust=True),
        alerts=[
            dict(sender_name="Deutscher Wetterdienst", event="frost",
                 start=SNAP - 13 * 3600,   # 2026-11-22 00:00 CET
                 end=SNAP + 21 * 3600,     # 2026-11-23 10:00 CET
                 description=("There is a risk of frost (level 1 of 4).Minimum temperature: "
                              "0 - -3 \u00b0C; near ground: -2 - -6 \u00b0C"),
                 tags=["Extreme low temperature"]),
            dict(sender_name="Deutscher Wetterdienst", event="slippery roads",
                 start=SNAP - 3 * 3600,    # 2026-11-22 10:00 CET
                 end=SNAP + 22 * 3600,     # 2026-11-23 11:00 CET
                 description=("There is a risk of slippery roads (level 1 of 4).Slippery conditions "
                              "due to light snowfall and refreezing wetness on roads and paths."),
                 tags=["Snow/Ice"]),
        ],
    ),
    dict(
        slug="lod-il", name="Lod", country="IL", state=None,
        lat=31.9510, lon=34.8881, tz="Asia/Jerusalem", offset=7200, units="metric",
        files=("weather", "forecast", "air_pollution"),
        tmin=[14.2, 14.5, 15.0, 14.1, 13.8, 14.6, 15.2, 14.9, 14.4, 14.7],
        tmax=[23.2, 23.6, 24.0, 22.9, 21.8, 22.7, 23.5, 23.1, 23.8, 23.4],
        tmax_hour=13.5,
        clouds=[5, 0, 5, 15, 55, 30, 10, 5, 5, 10],
        wind=[2.4, 2.9, 3.3, 2.6, 4.1, 3.5, 2.7, 2.5, 2.8, 2.6],
        wind_deg=[290, 300, 280, 310, 240, 270, 300, 290, 285, 295],
        pressure=[1016, 1017, 1015, 1013, 1010, 1013, 1016, 1017, 1016, 1015],
        spread=(4.5, 11.0), gust_factor=(1.3, 1.7), bg_pop=False,
        # explicit hourly amounts so the two 3h windows sum to 0.40 and 0.27 mm
        events=[
            ("2026-11-25 23:00", "2026-11-26 02:00", "rain", [0.12, 0.17, 0.11], 0.62),
            ("2026-11-26 02:00", "2026-11-26 05:00", "rain", [0.10, 0.10, 0.07], 0.55),
        ],
        obscuration=[],
        current=dict(dt=SNAP - 480, gust=True),
        owm_id=294421, population=66589,
    ),
    dict(
        slug="tokyo-jp", name="Tokyo", country="JP", state="Tokyo",
        lat=35.6895, lon=139.6917, tz="Asia/Tokyo", offset=32400, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[9.5, 9.8, 10.4, 11.2, 9.6, 8.9, 10.1, 11.0, 10.5, 9.9],
        tmax=[15.2, 15.8, 16.3, 15.0, 13.4, 14.6, 15.5, 16.1, 15.4, 15.0],
        tmax_hour=14.0,
        clouds=[10, 5, 20, 60, 85, 30, 10, 25, 40, 20],
        wind=[3.0, 2.6, 2.2, 3.4, 4.8, 5.2, 3.1, 2.5, 2.8, 3.0],
        wind_deg=[330, 340, 20, 160, 170, 320, 340, 350, 10, 330],
        pressure=[1022, 1024, 1021, 1016, 1010, 1015, 1021, 1023, 1020, 1019],
        spread=(3.0, 8.0), gust_factor=(1.3, 1.8), bg_pop=False, rain_cool=1.5,
        events=[
            ("2026-11-25 09:00", "2026-11-25 18:00", "rain", 2.2, 0.86),
        ],
        obscuration=[("2026-11-24 07:00", "2026-11-24 09:00", 721)],
        current=dict(dt=SNAP - 240, gust=False),
    ),
    dict(
        slug="sao-paulo-br", name="S\u00e3o Paulo", country="BR", state="S\u00e3o Paulo",
        lat=-23.5475, lon=-46.6361, tz="America/Sao_Paulo", offset=-10800, units="metric",
        files=("onecall", "air_pollution", "geocode"),
        tmin=[18.8, 19.4, 19.8, 20.1, 19.5, 19.0, 19.6, 20.3, 20.0, 19.7],
        tmax=[28.1, 28.6, 27.4, 28.9, 26.2, 25.8, 27.5, 28.8, 28.2, 27.6],
        tmax_hour=14.5,
        clouds=[40, 35, 45, 50, 75, 80, 55, 40, 45, 50],
        wind=[2.8, 3.0, 2.6, 3.3, 3.8, 3.1, 2.7, 2.9, 3.2, 3.0],
        wind_deg=[140, 150, 160, 130, 180, 200, 150, 140, 135, 145],
        pressure=[1015, 1014, 1013, 1014, 1012, 1011, 1013, 1015, 1014, 1014],
        spread=(1.8, 8.5), gust_factor=(1.4, 2.0), bg_pop=False, convective=True, rain_cool=4.0,
        events=[
            ("2026-11-22 15:00", "2026-11-22 19:00", "thunder", 6.0, 0.90),
            ("2026-11-23 16:00", "2026-11-23 19:00", "thunder", 1.5, 0.82),
            ("2026-11-24 14:00", "2026-11-24 17:00", "thunder", 4.5, 0.85),
            ("2026-11-25 02:00", "2026-11-25 07:00", "rain", 0.9, 0.70),
            ("2026-11-26 13:00", "2026-11-26 18:00", "thunder", 8.0, 0.95),
            ("2026-11-28 15:00", "2026-11-28 18:00", "thunder", 3.0, 0.76),
        ],
        obscuration=[],
        current=dict(dt=SNAP - 360, gust=False),
    ),
]

AIR = {
    # slug: (aqi, components)  -- ug/m3, consistent with the OWM index bands
    "london-gb": (2, dict(co=243.66, no=2.18, no2=27.42, o3=41.13, so2=3.55, pm2_5=11.87, pm10=16.42, nh3=1.01)),
    "paris-fr": (2, dict(co=270.37, no=4.91, no2=34.96, o3=29.68, so2=2.62, pm2_5=14.35, pm10=19.81, nh3=1.57)),
    "rome-it": (3, dict(co=327.11, no=6.37, no2=48.65, o3=52.93, so2=4.11, pm2_5=27.46, pm10=34.18, nh3=3.04)),
    "new-york-us": (2, dict(co=287.06, no=3.49, no2=41.82, o3=38.27, so2=5.72, pm2_5=6.93, pm10=10.28, nh3=0.84)),
    "berlin-de": (1, dict(co=223.64, no=0.67, no2=14.91, o3=46.49, so2=2.03, pm2_5=4.72, pm10=6.37, nh3=0.71)),
    "lod-il": (3, dict(co=263.68, no=1.12, no2=18.85, o3=92.27, so2=6.44, pm2_5=19.61, pm10=71.93, nh3=2.38)),
    "tokyo-jp": (2, dict(co=257.02, no=0.42, no2=22.69, o3=63.66, so2=7.87, pm2_5=8.74, pm10=12.16, nh3=0.53)),
    "sao-paulo-br": (3, dict(co=584.07, no=11.06, no2=52.78, o3=104.43, so2=9.18, pm2_5=18.37, pm10=29.94, nh3=4.47)),
}

# OWM AQI bands (upper bounds of index 1..4; above -> 5)
AQI_BANDS = {
    "so2": (20, 80, 250, 350),
    "no2": (40, 70, 150, 200),
    "pm10": (20, 50, 100, 200),
    "pm2_5": (10, 25, 50, 75),
    "o3": (60, 100, 140, 180),
    "co": (4400, 9400, 12400, 15400),
}


def owm_aqi(comp):
    idx = 1
    for k, bands in AQI_BANDS.items():
        v = comp[k]
        level = 5
        for i, b in enumerate(bands):
            if v < b:
                level = i + 1
                break
        idx = max(idx, level)
    return idx


LOCAL_NAMES = {
    "london-gb": {"en": "London", "de": "London", "fr": "Londres", "it": "Londra", "es": "Londres",
                  "pt": "Londres", "ru": "\u041b\u043e\u043d\u0434\u043e\u043d", "ja": "\u30ed\u30f3\u30c9\u30f3",
                  "zh": "\u4f26\u6566", "ar": "\u0644\u0646\u062f\u0646"},
    "paris-fr": {"en": "Paris", "fr": "Paris", "de": "Paris", "it": "Parigi", "es": "Par\u00eds",
                 "pt": "Paris", "ru": "\u041f\u0430\u0440\u0438\u0436", "ja": "\u30d1\u30ea", "zh": "\u5df4\u9ece"},
    "rome-it": {"en": "Rome", "it": "Roma", "de": "Rom", "fr": "Rome", "es": "Roma", "pt": "Roma",
                "ru": "\u0420\u0438\u043c", "ja": "\u30ed\u30fc\u30de", "la": "Roma"},
    "new-york-us": {"en": "New York", "de": "New York", "fr": "New York", "it": "New York",
                    "es": "Nueva York", "pt": "Nova Iorque", "ru": "\u041d\u044c\u044e-\u0419\u043e\u0440\u043a",
                    "ja": "\u30cb\u30e5\u30fc\u30e8\u30fc\u30af", "zh": "\u7ebd\u7ea6"},
    "berlin-de": {"en": "Berlin", "de": "Berlin", "fr": "Berlin", "it": "Berlino", "es": "Berl\u00edn",
                  "pl": "Berlin", "ru": "\u0411\u0435\u0440\u043b\u0438\u043d", "ja": "\u30d9\u30eb\u30ea\u30f3"},
    "tokyo-jp": {"en": "Tokyo", "ja": "\u6771\u4eac\u90fd", "de": "Tokio", "fr": "Tokyo", "es": "Tokio",
                 "it": "Tokyo", "ru": "\u0422\u043e\u043a\u0438\u043e", "zh": "\u4e1c\u4eac", "ko": "\ub3c4\ucfc4"},
    "sao-paulo-br": {"en": "S\u00e3o Paulo", "pt": "S\u00e3o Paulo", "de": "S\u00e3o Paulo", "fr": "S\u00e3o Paulo",
                     "es": "S\u00e3o Paulo", "it": "San Paolo", "ru": "\u0421\u0430\u043d-\u041f\u0430\u0443\u043b\u0443",
                     "ja": "\u30b5\u30f3\u30d1\u30a6\u30ed"},
}


# --------------------------------------------------------------------------
# Simulation
# --------------------------------------------------------------------------

class Sim:
    """Hourly internal state for one city, local day -1 .. 8 (UTC hour grid)."""

    def __init__(self, c):
        self.c = c
        self.rng = random.Random("isobar-samples-" + c["slug"])
        off, lat, lon = c["offset"], c["lat"], c["lon"]
        self.off = off

        # sun & moon per local day -1..8
        self.sun = {}
        self.moon = {}
        for d in range(-1, DAYS + 1):
            m0 = local_midnight_utc(off, d)
            ev = crossings(lambda t: sun_elevation(t, lat, lon), -0.833, m0, m0 + 86400, 600)
            rise = [t for t, k in ev if k == "up"]
            sset = [t for t, k in ev if k == "down"]
            self.sun[d] = (rise[0], sset[0])
            mev = crossings(lambda t: moon_elevation(t, lat, lon), 0.125, m0, m0 + 86400, 600)
            mrise = [t for t, k in mev if k == "up"]
            mset = [t for t, k in mev if k == "down"]
            # OWM reports moon events at whole minutes, 0 when there is none that day
            self.moon[d] = (int(round(mrise[0] / 60.0)) * 60 if mrise else 0,
                            int(round(mset[0] / 60.0)) * 60 if mset else 0)

        # anchors
        self.t_anchor = []
        self.noon_anchor = {"clouds": [], "wind": [], "deg": [], "pressure": []}
        unwrapped_deg = []
        prev = None
        for i, d in enumerate(range(-1, DAYS + 1)):
            m0 = local_midnight_utc(off, d)
            self.t_anchor.append((self.sun[d][0] + 1800, c["tmin"][i], "min"))
            self.t_anchor.append((m0 + int(c["tmax_hour"] * 3600), c["tmax"][i], "max"))
            noon = m0 + 12 * 3600
            self.noon_anchor["clouds"].append((noon, c["clouds"][i]))
            self.noon_anchor["wind"].append((noon, c["wind"][i]))
            self.noon_anchor["pressure"].append((noon, c["pressure"][i]))
            deg = c["wind_deg"][i]
            if prev is not None:
                while deg - prev > 180:
                    deg -= 360
                while deg - prev < -180:
                    deg += 360
            unwrapped_deg.append(deg)
            prev = deg
            self.noon_anchor["deg"].append((noon, deg))
        self.t_anchor.sort()

        # hour grid covering [midnight day0 - 1h, midnight day8 + 1h]
        self.t0 = local_midnight_utc(off, 0) - 3600
        self.t1 = local_midnight_utc(off, DAYS) + 3600
        self.times = list(range(self.t0, self.t1 + 1, 3600))
        n = len(self.times)
        rng = self.rng
        tnoise = ar1(rng, n, 0.6, 0.18)
        cnoise = ar1(rng, n, 0.85, 9.0)
        wnoise = ar1(rng, n, 0.7, 0.10)
        dnoise = ar1(rng, n, 0.8, 9.0)
        snoise = ar1(rng, n, 0.8, 0.35)
        pnoise = ar1(rng, n, 0.9, 0.6)

        # precipitation bookkeeping
        events = []
        for (s, e, kind, peak, pop) in c["events"]:
            ts, te = parse_local(s, off), parse_local(e, off)
            events.append((ts, te, kind, peak, pop))
        obsc = [(parse_local(s, off), parse_local(e, off), cid) for s, e, cid in c["obscuration"]]

        self.h = []
        cool_prev = 0.0
        for k, t in enumerate(self.times):
            lh = local_hour(t, off)
            temp_dry = diurnal_interp(self.t_anchor, t) + tnoise[k]

            # precipitation at this hour (hour starting at t)
            kind, rate, pop, in_event = None, 0.0, 0.0, False
            for (ts, te, ek, peak, epop) in events:
                if ts <= t < te:
                    in_event = True
                    dur = (te - ts) / 3600.0
                    idx = int((t - ts) // 3600)
                    if isinstance(peak, list):
                        rr = peak[idx]
                    else:
                        x = (idx + 0.5) / dur
                        rr = peak * (0.35 + 0.65 * math.sin(math.pi * x)) * (1 + 0.15 * rng.uniform(-1, 1))
                    kind, rate = ek, max(rate, rr)
                    pop = max(pop, min(1.0, epop + rng.uniform(-0.06, 0.06) + 0.05 * math.sin(math.pi * (idx + 0.5) / dur)))
                    pop = max(pop, 0.55)
                else:
                    # ramp before / after
                    gap = (ts - t) / 3600.0 if t < ts else (t - te) / 3600.0 + 1
                    if 0 < gap <= 3:
                        pop = max(pop, epop * (0.55 - 0.15 * gap) + rng.uniform(-0.04, 0.04))
            clouds_base = linear_interp(self.noon_anchor["clouds"], t)
            clouds = clouds_base + cnoise[k]
            if c.get("convective"):
                clouds += 28 * math.exp(-((lh - 15.5) / 3.0) ** 2)
            if in_event:
                clouds = max(clouds, 88 + rng.uniform(0, 12))
            elif pop > 0.1:
                clouds = max(clouds, 70 + rng.uniform(0, 20))
            clouds = int(round(min(100, max(0, clouds))))
            if not in_event and c.get("bg_pop") and clouds >= 85 and pop < 0.05:
                pop = rng.choice([0, 0, 0, 0.04, 0.08, 0.12, 0.17, 0.21])
            pop = r2(min(1.0, max(0.0, pop)))
            if rate > 0:
                assert pop >= 0.5

            # obscuration (mist/fog/haze) when dry
            obs = None
            for (os_, oe, cid) in obsc:
                if os_ <= t < oe and rate == 0:
                    obs = cid

            # evaporative cooling under rain / storms, recovering afterwards
            cool_now = 0.0
            if kind in ("rain", "shower", "thunder", "drizzle"):
                cool_now = c.get("rain_cool", 1.0) * (0.4 + 0.6 * min(1.0, rate / 4.0))
            cool = max(cool_now, cool_prev * 0.55)
            cool_prev = cool
            temp = temp_dry - cool

            # dew point / humidity
            sp_n, sp_d = c["spread"]
            diurnal = max(0.0, math.sin(math.pi * (lh - 7) / 12.0)) if 7 <= lh <= 19 else 0.0
            spread = max(0.25, sp_n + (sp_d - sp_n) * diurnal + snoise[k])
            dry_dew = temp_dry - spread
            if in_event:
                dew = min(temp - 0.35 - 0.5 * rng.random(), dry_dew + 2.5)
            elif obs in (701, 741):
                dew = temp - 0.25 - 0.35 * rng.random()
            else:
                dew = min(temp - 0.25, dry_dew + (1.0 if cool > 0.2 else 0.0))
            rh = rel_humidity(temp, dew)

            # wind
            wbase = linear_interp(self.noon_anchor["wind"], t)
            wdi = 1 + 0.18 * math.sin(math.pi * (lh - 9) / 10.0) if 9 <= lh <= 19 else 0.92
            ws = max(0.3, wbase * wdi * (1 + wnoise[k]) + (0.8 if in_event else 0.0))
            g_lo, g_hi = c["gust_factor"]
            gust = ws * rng.uniform(g_lo, g_hi) + 0.3
            deg = int(round(linear_interp(self.noon_anchor["deg"], t) + dnoise[k])) % 360

            pressure = int(round(linear_interp(self.noon_anchor["pressure"], t) + pnoise[k]))

            # visibility
            if kind in ("snow", "sleet", "rainsnow"):
                vis = int(round(rng.uniform(1800, 5200), -2))
            elif kind == "drizzle":
                vis = int(round(rng.uniform(4000, 8000), -2))
            elif kind in ("rain", "shower", "thunder"):
                vis = 10000 if rate < 1.0 else int(round(rng.uniform(4500, 9000), -2))
            elif obs == 741:
                vis = int(round(rng.uniform(250, 850), -1))
            elif obs == 701:
                vis = int(round(rng.uniform(2200, 4500), -2))
            elif obs == 721:
                vis = int(round(rng.uniform(5000, 8000), -2))
            else:
                vis = 10000

            elev = sun_elevation(t, c["lat"], c["lon"])
            uvi = 0.0
            if elev > 0:
                uvi = 12.5 * math.sin(math.radians(elev)) ** 2.42 * (1 - 0.55 * (clouds / 100.0) ** 2)
            self.h.append(dict(
                t=t, temp=temp, dew=dew, rh=rh, ws=ws, gust=gust, deg=deg, pressure=pressure,
                clouds=clouds, pop=pop, kind=kind, rate=rate, obs=obs, vis=vis, uvi=uvi,
                feels=feels_like(temp, rh, ws),
            ))
        self.by_t = {x["t"]: x for x in self.h}

    # ----------------------------------------------------------------------
    def is_day(self, t):
        d = local_day_index(t, self.off)
        rise, sset = self.sun[d]
        return rise <= t < sset

    def precip_amounts(self, x):
        """-> (rain_mm, snow_mm) for hour record x."""
        k, r = x["kind"], x["rate"]
        if not k:
            return 0.0, 0.0
        if k in ("snow", "sleet"):
            return 0.0, max(0.1, r)
        if k == "rainsnow":
            return max(0.1, r * 0.55), max(0.1, r * 0.45)
        return max(0.1, r), 0.0

    def weather_id(self, x):
        k, r = x["kind"], x["rate"]
        if k == "drizzle":
            return 300 if r < 0.5 else 301
        if k == "rain":
            return 500 if r < 1.0 else (501 if r < 4.0 else 502)
        if k == "shower":
            return 520 if r < 1.0 else 521
        if k == "snow":
            return 600 if r < 1.0 else 601
        if k == "sleet":
            return 611
        if k == "rainsnow":
            return 615 if r < 1.0 else 616
        if k == "thunder":
            prev = self.by_t.get(x["t"] - 3600)
            if prev is None or prev["kind"] != "thunder":
                return 211
            return 200 if r < 1.0 else (201 if r < 5.0 else 202)
        if x["obs"]:
            return x["obs"]
        return cloud_condition_id(x["clouds"])

    # unit conversion --------------------------------------------------------
    def T(self, c):
        return r2(c_to_f(c)) if self.c["units"] == "imperial" else r2(c)

    def W(self, ms):
        return r2(ms * MPS_TO_MPH) if self.c["units"] == "imperial" else r2(ms)


# --------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------

def hourly_entry(sim, x):
    e = {
        "dt": x["t"],
        "temp": sim.T(x["temp"]),
        "feels_like": sim.T(x["feels"]),
        "pressure": x["pressure"],
        "humidity": int(round(min(100, x["rh"]))),
        "dew_point": sim.T(x["dew"]),
        "uvi": r2(x["uvi"]),
        "clouds": x["clouds"],
        "visibility": x["vis"],
        "wind_speed": sim.W(x["ws"]),
        "wind_deg": x["deg"],
        "wind_gust": sim.W(x["gust"]),
        "weather": [condition(sim.weather_id(x), sim.is_day(x["t"]))],
        "pop": x["pop"],
    }
    rain, snow = sim.precip_amounts(x)
    if rain:
        e["rain"] = {"1h": r2(rain)}
    if snow:
        e["snow"] = {"1h": r2(snow)}
    return e


def current_block(sim):
    c = sim.c
    cur = c["current"]
    t = cur["dt"]
    rng = random.Random("isobar-current-" + c["slug"])
    h0 = sim.by_t[HOURLY_START]
    hprev = sim.by_t[HOURLY_START - 3600]
    w = (t - hprev["t"]) / 3600.0
    temp = hprev["temp"] + (h0["temp"] - hprev["temp"]) * w + rng.uniform(-0.12, 0.12)
    dew = hprev["dew"] + (h0["dew"] - hprev["dew"]) * w
    dew = min(dew, temp - 0.3)
    rh = rel_humidity(temp, dew)
    ws = h0["ws"] * rng.uniform(0.92, 1.05)
    gust = max(ws * 1.3, h0["gust"] * rng.uniform(0.9, 1.05))
    clouds = int(min(100, max(0, h0["clouds"] + rng.randint(-3, 3))))
    elev = sun_elevation(t, c["lat"], c["lon"])
    uvi = 0.0
    if elev > 0:
        uvi = 12.5 * math.sin(math.radians(elev)) ** 2.42 * (1 - 0.55 * (clouds / 100.0) ** 2)
    is_day = sim.is_day(t)
    ids = cur.get("weather") or [sim.weather_id(h0)]
    d0 = local_day_index(t, sim.off)
    rise, sset = sim.sun[d0]
    block = {
        "dt": t,
        "sunrise": rise,
        "sunset": sset,
        "temp": sim.T(temp),
        "feels_like": sim.T(feels_like(temp, rh, ws)),
        "pressure": h0["pressure"],
        "humidity": int(round(min(100, rh))),
        "dew_point": sim.T(dew),
        "uvi": r2(uvi),
        "clouds": clouds,
        "visibility": cur.get("visibility", h0["vis"]),
        "wind_speed": sim.W(ws),
        "wind_deg": (h0["deg"] + rng.randint(-6, 6)) % 360,
    }
    if cur.get("gust"):
        block["wind_gust"] = sim.W(gust)
    block["weather"] = [condition(i, is_day) for i in ids]
    rain, snow = sim.precip_amounts(h0)
    if rain:
        block["rain"] = {"1h": r2(rain * rng.uniform(0.85, 1.0))}
    if snow:
        block["snow"] = {"1h": r2(snow * rng.uniform(0.85, 1.0))}
    return block


def period_label(hours):
    mean = sum(x["clouds"] for x in hours) / len(hours)
    return "clear sky" if mean < 20 else "partly cloudy"


def precip_word(kinds):
    if "thunder" in kinds:
        return "thunderstorms"
    has_snow = bool(kinds & {"snow", "sleet", "rainsnow"})
    has_rain = bool(kinds & {"rain", "drizzle", "shower", "rainsnow"})
    if has_snow and has_rain:
        return "rain and snow"
    if has_snow:
        return "snow"
    return "rain"


def daily_summary(sim, day_hours):
    off = sim.off
    wet = [x for x in day_hours if x["kind"]]
    morning = [x for x in day_hours if 6 <= local_hour(x["t"], off) < 12]
    afternoon = [x for x in day_hours if 12 <= local_hour(x["t"], off) < 18]
    if wet:
        kind = precip_word({x["kind"] for x in wet})
        if len(wet) >= 12:
            return "There will be %s today" % kind
        if all(local_hour(x["t"], off) < 12 for x in wet):
            return ("The day will start with %s through the late morning hours, transitioning to %s"
                    % (kind, period_label(afternoon)))
        return "Expect a day of %s with %s" % (period_label(day_hours), kind)
    m, a = period_label(morning), period_label(afternoon)
    if m == a:
        return "There will be %s today" % m
    if a == "clear sky":
        return "You can expect %s in the morning, with clearing in the afternoon" % m
    return "You can expect %s in the morning, with %s in the afternoon" % (m, a)


def daily_entry(sim, d):
    off = sim.off
    m0 = local_midnight_utc(off, d)
    day_hours = [sim.by_t[m0 + i * 3600] for i in range(24)]
    span = day_hours + [sim.by_t[m0 + 24 * 3600]]
    at = lambda hh: sim.by_t[m0 + hh * 3600]
    temps = [sim.T(x["temp"]) for x in span]
    noon = at(12)
    rise, sset = sim.sun[d]
    mrise, mset = sim.moon[d]
    dt = m0 + 12 * 3600
    phase = round(moon_phase(dt), 2) % 1.0
    rain = sum(sim.precip_amounts(x)[0] for x in day_hours)
    snow = sum(sim.precip_amounts(x)[1] for x in day_hours)
    kinds = {x["kind"] for x in day_hours if x["kind"]}
    max_rate = max([x["rate"] for x in day_hours] + [0])
    if "thunder" in kinds:
        wid = 200 if max_rate < 1.0 else (201 if max_rate < 5.0 else 202)
    elif snow > 0 and rain > 0:
        wid = 615 if rain + snow < 3 else 616
    elif snow > 0:
        wid = 611 if kinds == {"sleet"} else (600 if snow < 3 else 601)
    elif rain > 0:
        wid = 500 if rain < 2.5 else (501 if rain < 20 else 502)
    else:
        daytime = [x for x in day_hours if 7 <= local_hour(x["t"], off) <= 18]
        wid = cloud_condition_id(sum(x["clouds"] for x in daytime) / len(daytime))
    wind_max = max(day_hours, key=lambda x: x["ws"])
    e = {
        "dt": dt,
        "sunrise": rise,
        "sunset": sset,
        "moonrise": mrise,
        "moonset": mset,
        "moon_phase": r2(phase),
        "summary": daily_summary(sim, day_hours),
        "temp": {
            "day": sim.T(noon["temp"]),
            "min": min(temps),
            "max": max(temps),
            "night": sim.T(sim.by_t[m0 + 24 * 3600]["temp"]),
            "eve": sim.T(at(18)["temp"]),
            "morn": sim.T(at(6)["temp"]),
        },
        "feels_like": {
            "day": sim.T(noon["feels"]),
            "night": sim.T(sim.by_t[m0 + 24 * 3600]["feels"]),
            "eve": sim.T(at(18)["feels"]),
            "morn": sim.T(at(6)["feels"]),
        },
        "pressure": noon["pressure"],
        "humidity": int(round(min(100, noon["rh"]))),
        "dew_point": sim.T(noon["dew"]),
        "wind_speed": sim.W(wind_max["ws"]),
        "wind_deg": wind_max["deg"],
        "wind_gust": sim.W(max(x["gust"] for x in day_hours)),
        "weather": [condition(wid, True)],
        "clouds": int(round(sum(x["clouds"] for x in day_hours) / 24.0)),
        "pop": max(x["pop"] for x in day_hours),
    }
    if rain > 0:
        e["rain"] = r2(rain)
    if snow > 0:
        e["snow"] = r2(snow)
    e["uvi"] = r2(max(x["uvi"] for x in day_hours))
    return e


def minutely_block(sim):
    """One Call's `minutely`: precipitation (mm/h) for each minute from the current one
    to an hour later, following the hour records the minutes fall in."""
    t0 = sim.c["current"]["dt"]
    start = t0 - t0 % 60
    out = []
    for i in range(61):
        t = start + i * 60
        rain, snow = sim.precip_amounts(sim.by_t[t - t % 3600])
        out.append({"dt": t, "precipitation": r2(rain + snow)})
    return out


def build_onecall(sim):
    c = sim.c
    out = {
        "lat": c["lat"],
        "lon": c["lon"],
        "timezone": c["tz"],
        "timezone_offset": c["offset"],
        "current": current_block(sim),
        "minutely": minutely_block(sim),
        "hourly": [hourly_entry(sim, sim.by_t[HOURLY_START + i * 3600]) for i in range(HOURS)],
        "daily": [daily_entry(sim, d) for d in range(DAYS)],
    }
    if c.get("alerts"):
        out["alerts"] = [dict(a) for a in c["alerts"]]
    return out


def build_weather(sim):
    """Current Weather 2.5 (/data/2.5/weather)."""
    c = sim.c
    cur = current_block(sim)
    rng = random.Random("isobar-weather25-" + c["slug"])
    t = cur["temp"]
    body = {
        "coord": {"lon": c["lon"], "lat": c["lat"]},
        "weather": cur["weather"],
        "base": "stations",
        "main": {
            "temp": t,
            "feels_like": cur["feels_like"],
            "temp_min": r2(t - rng.uniform(0.6, 1.4)),
            "temp_max": r2(t + rng.uniform(0.4, 1.1)),
            "pressure": cur["pressure"],
            "humidity": cur["humidity"],
            "sea_level": cur["pressure"],
            "grnd_level": cur["pressure"] - 7,
        },
        "visibility": cur["visibility"],
        "wind": {"speed": cur["wind_speed"], "deg": cur["wind_deg"],
                 "gust": cur.get("wind_gust", r2(cur["wind_speed"] * 1.5))},
        "clouds": {"all": cur["clouds"]},
        "dt": cur["dt"],
        "sys": {"type": 1, "id": 6845, "country": c["country"],
                "sunrise": cur["sunrise"], "sunset": cur["sunset"]},
        "timezone": c["offset"],
        "id": c["owm_id"],
        "name": c["name"],
        "cod": 200,
    }
    if "rain" in cur:
        body["rain"] = cur["rain"]
    return body


def build_forecast(sim):
    """5 day / 3 hour forecast 2.5 (/data/2.5/forecast)."""
    c = sim.c
    kf = {0: 1.38, 1: -0.74, 2: 0.21}
    items = []
    for i in range(FORECAST_COUNT):
        t = FORECAST_START + i * FORECAST_STEP
        x = sim.by_t[t]
        window = [sim.by_t[t + j * 3600] for j in range(3)]
        rain3 = sum(sim.precip_amounts(w)[0] for w in window)
        temp = sim.T(x["temp"])
        k = kf.get(i, 0)
        tmin, tmax = temp, temp
        if k > 0:
            tmin = r2(temp - k)
        elif k < 0:
            tmax = r2(temp - k)
        is_day = sim.is_day(t)
        if rain3 > 0:
            wid = 500 if rain3 < 3 else 501
        else:
            wid = cloud_condition_id(x["clouds"])
        item = {
            "dt": t,
            "main": {
                "temp": temp,
                "feels_like": sim.T(x["feels"]),
                "temp_min": tmin,
                "temp_max": tmax,
                "pressure": x["pressure"],
                "sea_level": x["pressure"],
                "grnd_level": x["pressure"] - 7,
                "humidity": int(round(min(100, x["rh"]))),
                "temp_kf": k,
            },
            "weather": [condition(wid, is_day)],
            "clouds": {"all": max(w["clouds"] for w in window) if rain3 > 0 else x["clouds"]},
            "wind": {"speed": sim.W(x["ws"]), "deg": x["deg"], "gust": sim.W(x["gust"])},
            "visibility": 10000,
            "pop": max(w["pop"] for w in window),
        }
        if rain3 > 0:
            item["rain"] = {"3h": r2(rain3)}
        item["sys"] = {"pod": "d" if is_day else "n"}
        item["dt_txt"] = datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        items.append(item)
    rise, sset = sim.sun[0]
    return {
        "cod": "200",
        "message": 0,
        "cnt": FORECAST_COUNT,
        "list": items,
        "city": {
            "id": c["owm_id"],
            "name": c["name"],
            "coord": {"lat": c["lat"], "lon": c["lon"]},
            "country": c["country"],
            "population": c["population"],
            "timezone": c["offset"],
            "sunrise": rise,
            "sunset": sset,
        },
    }


def build_air(c):
    aqi, comp = AIR[c["slug"]]
    return {
        "coord": {"lon": c["lon"], "lat": c["lat"]},
        "list": [{"main": {"aqi": aqi}, "components": dict(comp), "dt": SNAP}],
    }


def build_geocode(c):
    return [{
        "name": c["name"],
        "local_names": LOCAL_NAMES[c["slug"]],
        "lat": c["lat"],
        "lon": c["lon"],
        "country": c["country"],
        "state": c["state"],
    }]


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def normalize(v):
    """OpenWeather serialises integral doubles without a fraction (0, 1, 10)."""
    if isinstance(v, float):
        if v == int(v):
            return int(v)
        return v
    if isinstance(v, dict):
        return {k: normalize(x) for k, x in v.items()}
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps(normalize(obj), indent=2, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def generate(out_dir):
    written = []
    for c in CITIES:
        sim = Sim(c)
        d = os.path.join(out_dir, c["slug"])
        builders = {
            "onecall": lambda: build_onecall(sim),
            "weather": lambda: build_weather(sim),
            "forecast": lambda: build_forecast(sim),
            "air_pollution": lambda: build_air(c),
            "geocode": lambda: build_geocode(c),
        }
        for name in c["files"]:
            p = os.path.join(d, name + ".json")
            write_json(p, builders[name]())
            written.append(p)
    return written


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------

def _reject_constant(name):
    raise ValueError("non-JSON constant %s" % name)


class Check:
    def __init__(self):
        self.errors = []

    def __call__(self, cond, msg):
        if not cond:
            self.errors.append(msg)


def validate(out_dir):
    ck = Check()
    rows = []
    expected_files = {}
    for c in CITIES:
        expected_files[c["slug"]] = sorted(n + ".json" for n in c["files"])
    # Folders holding only Open-Meteo responses are make_open_meteo_samples.py's.
    present = sorted(x for x in os.listdir(out_dir) if os.path.isdir(os.path.join(out_dir, x))
                     and not all(f.startswith("open-meteo-") for f in os.listdir(os.path.join(out_dir, x))))
    ck(present == sorted(expected_files), "city dirs %s" % present)

    for c in CITIES:
        slug, off = c["slug"], c["offset"]
        d = os.path.join(out_dir, slug)
        files = sorted(os.listdir(d))
        ck(files == expected_files[slug], "%s files %s" % (slug, files))
        docs = {}
        for fn in files:
            with open(os.path.join(d, fn), encoding="utf-8") as f:
                docs[fn[:-5]] = json.load(f, parse_constant=_reject_constant)
        cur_temp, n_alerts = None, 0
        sun_by_day = {}

        def daynight_ok(t, icon, sunrise, sunset, where):
            ck(icon[-1] == ("d" if sunrise <= t < sunset else "n"),
               "%s %s icon %s at %d (rise %d set %d)" % (slug, where, icon, t, sunrise, sunset))

        if "onecall" in docs:
            oc = docs["onecall"]
            ck(set(oc) <= {"lat", "lon", "timezone", "timezone_offset", "current", "minutely", "hourly", "daily", "alerts"},
               "%s onecall keys %s" % (slug, list(oc)))
            ck(len(oc.get("minutely", [])) == 61 and all(m["precipitation"] >= 0 for m in oc["minutely"]), slug + " minutely")
            ck(oc["timezone"] == c["tz"] and oc["timezone_offset"] == off, slug + " tz")
            ck(oc["lat"] == c["lat"] and oc["lon"] == c["lon"], slug + " coords")
            H, D, cur = oc["hourly"], oc["daily"], oc["current"]
            ck(len(H) == HOURS, "%s hourly %d" % (slug, len(H)))
            ck(len(D) == DAYS, "%s daily %d" % (slug, len(D)))
            ck(H[0]["dt"] == HOURLY_START, slug + " hourly[0].dt")
            ck(all(b["dt"] - a["dt"] == 3600 for a, b in zip(H, H[1:])), slug + " hourly spacing")
            ck(all(b["dt"] > a["dt"] for a, b in zip(D, D[1:])), slug + " daily increasing")
            ck(SNAP - 900 <= cur["dt"] < SNAP, slug + " current.dt window")
            for i, e in enumerate(D):
                lt = e["dt"] + off
                ck(lt % 86400 == 12 * 3600, "%s daily[%d] not local noon" % (slug, i))
                y, m, dd = LOCAL_DAY0
                ck(lt // 86400 == calendar.timegm((y, m, dd, 0, 0, 0)) // 86400 + i,
                   "%s daily[%d] wrong local date" % (slug, i))
                m0 = e["dt"] - 12 * 3600
                sun_by_day[i] = (e["sunrise"], e["sunset"])
                ck(m0 <= e["sunrise"] < e["sunset"] < m0 + 86400, "%s daily[%d] sun" % (slug, i))
                for key in ("moonrise", "moonset"):
                    ck(e[key] == 0 or m0 <= e[key] < m0 + 86400, "%s daily[%d] %s" % (slug, i, key))
                ck(0 <= e["moon_phase"] < 1, slug + " moon_phase")
                tp = e["temp"]
                for k in ("day", "night", "eve", "morn"):
                    ck(tp["min"] <= tp[k] <= tp["max"], "%s daily[%d] temp.%s outside min/max" % (slug, i, k))
                ck(0 <= e["pop"] <= 1, slug + " daily pop")
                if "rain" in e or "snow" in e:
                    ck(e["pop"] >= 0.5, "%s daily[%d] precip with low pop" % (slug, i))
                    for k in ("rain", "snow"):
                        if k in e:
                            ck(isinstance(e[k], (int, float)) and e[k] > 0, "%s daily %s not number" % (slug, k))
                ck(e["dew_point"] < tp["day"] + 0.01, slug + " daily dew")
                ck(0 <= e["humidity"] <= 100 and 0 <= e["wind_deg"] <= 359, slug + " daily ranges")
                ck(e["weather"][0]["icon"].endswith("d"), slug + " daily icon")
                ck(isinstance(e["summary"], str) and e["summary"], slug + " summary")
                # overlap with hourly
                for h in H:
                    if m0 <= h["dt"] < m0 + 86400:
                        ck(tp["min"] <= h["temp"] <= tp["max"],
                           "%s hourly %d temp %s outside daily[%d] %s..%s" % (slug, h["dt"], h["temp"], i, tp["min"], tp["max"]))

            def sun_for(t):
                i = (t + off) // 86400 - (D[0]["dt"] + off) // 86400
                return sun_by_day[i]

            for where, e in [("current", cur)] + [("hourly", h) for h in H]:
                ck(e["dew_point"] < e["temp"], "%s %s dew >= temp at %d" % (slug, where, e["dt"]))
                ck(0 <= e["humidity"] <= 100, slug + " humidity")
                ck(0 <= e["wind_deg"] <= 359, slug + " wind_deg")
                ck(0 <= e["clouds"] <= 100, slug + " clouds")
                ck(0 < e["visibility"] <= 10000, slug + " visibility")
                rise, sset = sun_for(e["dt"])
                for w in e["weather"]:
                    daynight_ok(e["dt"], w["icon"], rise, sset, where)
                    main, desc, icon = CONDITIONS[w["id"]]
                    ck((w["main"], w["description"], w["icon"][:2]) == (main, desc, icon), slug + " cond table")
                if not (rise <= e["dt"] < sset):
                    ck(e["uvi"] == 0, "%s %s uvi at night %d" % (slug, where, e["dt"]))
                for k in ("rain", "snow"):
                    if k in e:
                        ck(list(e[k]) == ["1h"], slug + " precip key")
                if where == "hourly":
                    ck(0 <= e["pop"] <= 1, slug + " pop")
                    if "rain" in e or "snow" in e:
                        ck(e["pop"] >= 0.5, "%s hourly precip with low pop at %d" % (slug, e["dt"]))
                    ck("wind_gust" in e, slug + " hourly gust")
            ck(cur["sunrise"] == sun_by_day[0][0] and cur["sunset"] == sun_by_day[0][1], slug + " current sun")
            tol = 2.0 if c["units"] == "imperial" else 1.0
            ck(abs(cur["temp"] - H[0]["temp"]) < tol, slug + " current vs hourly[0] temp")
            cur_temp = cur["temp"]
            for a in oc.get("alerts", []):
                ck(list(a) == ["sender_name", "event", "start", "end", "description", "tags"], slug + " alert keys")
                ck(a["start"] <= SNAP < a["end"], slug + " alert not active")
            n_alerts = len(oc.get("alerts", []))

        if "weather" in docs:
            w = docs["weather"]
            ck(w["cod"] == 200 and isinstance(w["cod"], int), slug + " weather cod")
            ck(w["base"] == "stations" and w["timezone"] == off, slug + " weather base/tz")
            ck(w["main"]["temp_min"] <= w["main"]["temp"] <= w["main"]["temp_max"], slug + " weather min/max")
            ck(SNAP - 900 <= w["dt"] < SNAP, slug + " weather dt")
            daynight_ok(w["dt"], w["weather"][0]["icon"], w["sys"]["sunrise"], w["sys"]["sunset"], "weather")
            cur_temp = w["main"]["temp"]

        if "forecast" in docs:
            fc = docs["forecast"]
            L = fc["list"]
            ck(fc["cod"] == "200" and isinstance(fc["cod"], str), slug + " forecast cod")
            ck(fc["cnt"] == FORECAST_COUNT == len(L), slug + " forecast count")
            ck(L[0]["dt"] == FORECAST_START and L[0]["dt"] > SNAP, slug + " forecast start")
            ck(all(b["dt"] - a["dt"] == FORECAST_STEP for a, b in zip(L, L[1:])), slug + " forecast spacing")
            rains = [x for x in L if "rain" in x]
            ck(1 <= len(rains) <= 2, slug + " forecast rain entries %d" % len(rains))
            ck(any(x["rain"] == {"3h": 0.4} for x in rains), slug + " forecast 0.4 entry")
            for x in L:
                ck(x["dt_txt"] == datetime.fromtimestamp(x["dt"], timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
                   slug + " dt_txt")
                ck(x["sys"]["pod"] == x["weather"][0]["icon"][-1], slug + " pod/icon")
                ck(x["main"]["temp_min"] <= x["main"]["temp"] <= x["main"]["temp_max"], slug + " fc min/max")
                ck(0 <= x["pop"] <= 1 and ("rain" not in x or x["pop"] >= 0.5), slug + " fc pop")

        ap = docs["air_pollution"]
        comp = ap["list"][0]["components"]
        aqi = ap["list"][0]["main"]["aqi"]
        ck(list(comp) == ["co", "no", "no2", "o3", "so2", "pm2_5", "pm10", "nh3"], slug + " components")
        ck(owm_aqi(comp) == aqi, "%s aqi %d vs components %d" % (slug, aqi, owm_aqi(comp)))
        ck(ap["coord"] == {"lon": c["lon"], "lat": c["lat"]}, slug + " ap coord")

        if "geocode" in docs:
            g = docs["geocode"]
            ck(isinstance(g, list) and len(g) == 1, slug + " geocode array")
            ck(g[0]["lat"] == c["lat"] and g[0]["lon"] == c["lon"] and g[0]["state"] == c["state"], slug + " geocode")

        rows.append((slug, ",".join(f[:-5] for f in files), cur_temp,
                     "F" if c["units"] == "imperial" else "C", aqi, n_alerts))

    print("%-14s %-36s %9s %4s %7s" % ("city", "files", "cur temp", "aqi", "alerts"))
    for slug, files, t, u, aqi, na in rows:
        print("%-14s %-36s %7.2f%s %4d %7d" % (slug, files, t, u, aqi, na))
    if ck.errors:
        print("\n%d validation error(s):" % len(ck.errors))
        for e in ck.errors:
            print("  -", e)
        return False
    print("\nall checks passed")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(REPO_ROOT, "Samples"))
    ap.add_argument("--check", action="store_true", help="only validate existing files")
    args = ap.parse_args()
    if not args.check:
        for p in generate(args.out):
            print("wrote", os.path.relpath(p, os.getcwd()))
        print()
    sys.exit(0 if validate(args.out) else 1)


if __name__ == "__main__":
    main()
