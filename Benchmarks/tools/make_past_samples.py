#!/usr/bin/env python3
"""Writes the demo's recorded past: Samples/past/<time>/<slug>/open-meteo-forecast.json
for the eight demo cities of isobar.yml, every 3 hours over the 10 days before each
city's current sample (80 recorded times), deterministic from fixed seeds.

`history: { start_from: Samples/past }` in isobar.yml imports it into a fresh history
(`isobar history import Samples/past` does the same by hand), so the demo's first build
already has a past: yesterday at this time, a week of observations, and forecasts to
verify.

How it is made:

  * The weather is make_samples.py's own simulation (diurnal curve from daily min/max
    anchors, dew point, humidity, feels-like, wind, clouds, UV, rain events), run over
    the 11 days before each city's current sample with a few fronts per city (a pressure
    dip, a warm sector, rain or snow at the passage, then colder and windier air) and
    some showers and mist. From the current sample's local midnight on, the past is read
    from the very simulation behind Samples/<slug>/ (onecall.json, or Lod's 2.5 pair),
    so the last recorded times run straight into the current sample.
  * Recorded times are the current sample's data time minus 3 h, 6 h, ... 240 h: the
    time exactly 24 h before it is one ("compared with yesterday at this time").
    Folders are named for the 3-hour slot the response was fetched in
    (`2026-11-21T1200Z`); the data time inside is the city's, a few minutes earlier.
  * Each response's forecast is the later "truth" plus an error that grows with lead
    time (temperature about 1 degC at 24 h and 2.5 degC at 72 h, mean absolute), smooth in
    time; rain is forecast with timing errors, some events missed and some false alarms,
    so a verification finds hits, misses and false alarms.
  * The format is Open-Meteo's (timeformat=unixtime, in the units Isobar asks for: New
    York's in degF, mph and inches), compact: a `current` block, 80 hourly steps (so
    72-hour-ahead forecasts exist; One Call's hourly is 48 hours) with the variables the
    history records, and 7 days. One Call bodies would be ~35 KB each, 17 MB in all.

Running it twice writes identical bytes. Standard library only.

Usage:
    python3 Benchmarks/tools/make_past_samples.py            # write Samples/past, print a check
    python3 Benchmarks/tools/make_past_samples.py --out DIR
"""

import argparse
import json
import math
import os
import random
import shutil
import sys
from datetime import date, datetime, timedelta, timezone

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_samples as ms  # noqa: E402

STEP = 3 * 3600
COUNT = 80                 # 10 days of 3-hourly records
HOURLY = 80                # hourly forecast steps per response (72 h ahead and a margin)
DAILY = 7                  # daily forecast entries per response
PAST_DAYS = 11             # simulated days before the current sample's local day 0
DAY0 = date(*ms.LOCAL_DAY0)  # the current sample's local day 0 (ms.LOCAL_DAY0 is moved while simulating the past)

# The character of each city's last ten days: precipitation kinds at fronts, how many
# fronts, extra showers, amounts (mm/h at the peak), mist or fog mornings, the mist's code.
PAST = {
    "london-gb": dict(kinds=["rain", "drizzle", "rain"], fronts=3, showers=3, peak=(0.6, 1.8), fog=1, fog_id=701),
    "paris-fr": dict(kinds=["rain", "rain", "drizzle"], fronts=3, showers=1, peak=(0.5, 1.6), fog=2, fog_id=701),
    "rome-it": dict(kinds=["rain", "shower"], fronts=2, showers=1, peak=(0.8, 2.6), fog=1, fog_id=701),
    "new-york-us": dict(kinds=["rain", "rain"], fronts=2, showers=1, peak=(1.0, 3.0), fog=0, fog_id=701),
    # Berlin's fortnight was milder than its current sample, so the demo shows a record:
    # this morning's low is the coldest of November since the history began.
    "berlin-de": dict(kinds=["snow", "rainsnow", "sleet", "rain"], fronts=3, showers=1, peak=(0.3, 1.0), fog=2, fog_id=741, milder=3.5),
    "lod-il": dict(kinds=["shower"], fronts=1, showers=0, peak=(0.4, 1.6), fog=0, fog_id=721),
    "tokyo-jp": dict(kinds=["rain"], fronts=2, showers=0, peak=(0.8, 2.4), fog=1, fog_id=721),
    "sao-paulo-br": dict(kinds=["rain", "thunder"], fronts=1, showers=4, peak=(2.0, 7.0), fog=0, fog_id=701),
}

# OpenWeather condition codes (the simulation's) to WMO codes (Open-Meteo's).
WMO = {200: 95, 211: 95, 201: 96, 202: 99, 300: 51, 301: 53, 500: 61, 501: 63, 502: 65, 520: 80, 521: 81,
       600: 71, 601: 73, 611: 66, 615: 71, 616: 73, 701: 45, 721: 45, 741: 45,
       800: 0, 801: 1, 802: 2, 803: 2, 804: 3}
SNOWY = {"snow", "sleet", "rainsnow"}


def local_day_string(day):
    """Old day index (0 = 2026-11-22 local) as 'YYYY-MM-DD'."""
    return (DAY0 + timedelta(days=day)).isoformat()


def past_scenario(c):
    """The city's dict for the simulation of days -11 .. 0: per-day anchors with fronts,
    and the precipitation and mist events of those days."""
    rng = random.Random("isobar-past-" + c["slug"])
    plan = PAST[c["slug"]]
    n = PAST_DAYS + 2  # days -12 .. 0 (the simulation reads day -1 of its own calendar)
    mean = lambda xs: sum(xs) / len(xs)
    tmin = [mean(c["tmin"]) + rng.uniform(-1.2, 1.2) for _ in range(n)]
    tmax = [mean(c["tmax"]) + rng.uniform(-1.2, 1.2) for _ in range(n)]
    clouds = [min(100, max(0, mean(c["clouds"]) + rng.uniform(-25, 25))) for _ in range(n)]
    wind = [mean(c["wind"]) * rng.uniform(0.75, 1.2) for _ in range(n)]
    base_deg = c["wind_deg"][0]
    deg = [base_deg + rng.uniform(-35, 35) for _ in range(n)]
    pressure = [mean(c["pressure"]) + rng.uniform(-3, 3) for _ in range(n)]
    events, obscuration = [], []
    # Fronts on days -10 .. -2, at least two days apart.
    candidates = list(range(-10, -1))
    fronts = []
    while len(fronts) < plan["fronts"] and candidates:
        f = rng.choice(candidates)
        fronts.append(f)
        candidates = [d for d in candidates if abs(d - f) >= 3]
    for f in sorted(fronts):
        i = f + 12  # index into the per-day lists (day -12 is index 0)
        drop = rng.uniform(2.5, 4.5)
        tmax[i - 1] += 1.5
        tmin[i] += 1.5
        tmax[i + 1] -= drop
        tmin[i + 1] -= drop * 0.8
        tmax[i + 2] -= drop * 0.5
        tmin[i + 2] -= drop * 0.4
        pressure[i - 1] -= 5
        pressure[i] -= rng.uniform(8, 14)
        pressure[i + 1] += 2
        clouds[i - 1] = max(clouds[i - 1], 75)
        clouds[i] = 95
        clouds[i + 1] = min(clouds[i + 1], 45)
        wind[i] *= 1.7
        wind[i + 1] *= 1.3
        deg[i - 1] = base_deg - 40
        deg[i + 1] = base_deg + 60
        start = rng.randint(3, 17)
        hours = rng.randint(4, 8)
        kind = rng.choice(plan["kinds"])
        events.append(event(f, start, hours, kind, rng.uniform(*plan["peak"]), rng.uniform(0.7, 0.95)))
    for _ in range(plan["showers"]):
        d = rng.randint(-10, -2)
        convective = c.get("convective")
        start = rng.randint(13, 16) if convective else rng.randint(0, 20)
        kind = "thunder" if convective else ("snow" if plan["kinds"][0] == "snow" else "shower")
        events.append(event(d, start, rng.randint(2, 4), kind, rng.uniform(*plan["peak"]), rng.uniform(0.55, 0.8)))
    for _ in range(plan["fog"]):
        d = rng.randint(-10, -2)
        obscuration.append((local(d, 5), local(d, 5 + rng.randint(2, 4)), plan["fog_id"]))
    for i in range(n):
        tmin[i] += plan.get("milder", 0)
        tmax[i] += plan.get("milder", 0)
    # The last two days are the current sample's own days -1 and 0.
    for key, values in (("tmin", tmin), ("tmax", tmax), ("clouds", clouds), ("wind", wind), ("wind_deg", deg), ("pressure", pressure)):
        values[-2], values[-1] = c[key][0], c[key][1]
        # Day -2 half way towards day -1, so the simulation's last days flow into the sample.
        values[-3] = (values[-3] + values[-2]) / 2
    past = dict(c)
    past.update(tmin=tmin, tmax=tmax, clouds=[int(round(x)) for x in clouds], wind=wind,
                wind_deg=[int(round(x)) % 360 for x in deg], pressure=[int(round(x)) for x in pressure],
                events=events + list(c["events"]), obscuration=obscuration + list(c["obscuration"]))
    return past


def local(day, hour):
    return "%s %02d:00" % (local_day_string(day + hour // 24), hour % 24)


def event(day, start, hours, kind, peak, pop):
    return (local(day, start), local(day, start + hours), kind, round(peak, 2), round(pop, 2))


def hours_of(sim):
    """The simulation's hour records, each with its day-or-night, condition and amounts,
    read while the simulation's calendar is in force."""
    out = {}
    for x in sim.h:
        rain, snow = sim.precip_amounts(x)
        out[x["t"]] = dict(x, day=sim.is_day(x["t"]), wid=sim.weather_id(x), rain=rain, snow=snow)
    return out


def simulate(c):
    """Truth by the hour, from 11 days before the current sample's local day 0 to the end
    of the current sample's simulation (local day 8)."""
    scenario = past_scenario(c)
    saved = ms.LOCAL_DAY0, ms.DAYS
    first = DAY0 - timedelta(days=PAST_DAYS)
    try:
        ms.LOCAL_DAY0, ms.DAYS = (first.year, first.month, first.day), PAST_DAYS
        past = hours_of(ms.Sim(scenario))
    finally:
        ms.LOCAL_DAY0, ms.DAYS = saved
    current = hours_of(ms.Sim(c))
    seam = ms.local_midnight_utc(c["offset"], 0)
    truth = {t: x for t, x in past.items() if t < seam}
    truth.update({t: x for t, x in current.items() if t >= seam})
    return truth


def data_time(c):
    """The current sample's data time (One Call's current.dt, or the 2.5 weather's dt)."""
    return c["current"]["dt"]


class Units:
    def __init__(self, imperial):
        self.imperial = imperial

    def t(self, c):
        return round(c * 9 / 5 + 32, 1) if self.imperial else round(c, 1)

    def w(self, ms_):
        return round(ms_ * ms.MPS_TO_MPH, 1) if self.imperial else round(ms_, 1)

    def rain(self, mm):
        return round(mm / 25.4, 3) if self.imperial else round(mm, 1)

    def snow(self, mm):
        # Open-Meteo's snowfall is in cm (inches for imperial); Isobar reads it back as depth in mm.
        return round(mm / 25.4, 3) if self.imperial else round(mm / 10, 2)


def wmo_for(kind, amount, clouds, fog):
    if kind:
        if kind in SNOWY:
            return 73 if amount >= 1.0 else 71
        if kind == "thunder":
            return 95
        if kind == "drizzle":
            return 51 if amount < 0.5 else 53
        if kind == "shower":
            return 80 if amount < 1.0 else 81
        return 61 if amount < 1.0 else (63 if amount < 4.0 else 65)
    if fog:
        return 45
    return 0 if clouds < 10 else 1 if clouds < 25 else 2 if clouds < 85 else 3


def ar(rng, n, phi):
    """A smooth series of unit variance."""
    out, v = [], rng.gauss(0, 1)
    s = math.sqrt(1 - phi * phi)
    for _ in range(n):
        out.append(v)
        v = phi * v + s * rng.gauss(0, 1)
    return out


def forecast_series(c, truth, issued, start, count):
    """What the forecast issued at `issued` said for each hour from `start` on: the truth
    later observed, plus errors growing with lead time."""
    rng = random.Random("isobar-past-forecast-%s-%d" % (c["slug"], issued))
    temp_e, wind_e, dir_e, cloud_e, rh_e = (ar(rng, count, phi) for phi in (0.96, 0.9, 0.9, 0.85, 0.8))
    shift_z = rng.gauss(0, 1)
    missed = {block: rng.random() < 0.12 + 0.1 * block for block in range(-1, 9)}
    phantom = None
    if rng.random() < (0.45 if c.get("bg_pop") else 0.3):
        k0 = rng.randint(3, 72)
        phantom = (start + k0 * 3600, start + (k0 + rng.randint(2, 5)) * 3600, rng.uniform(0.5, 0.72), rng.uniform(0.1, 0.5))
    plan = PAST[c["slug"]]
    out = []
    for k in range(count):
        t = start + k * 3600
        lead = max(0.0, (t - issued) / 3600)
        x = truth[t]
        if t < issued:
            out.append(dict(t=t, temp=x["temp"], rh=x["rh"], pop=x["pop"], rain=x["rain"], snow=x["snow"], kind=x["kind"],
                            ws=x["ws"], deg=x["deg"], clouds=x["clouds"], fog=bool(x["obs"])))
            continue
        temp = x["temp"] + (0.4 + 0.038 * lead) * temp_e[k]
        rh = min(100, max(8, x["rh"] - 2.5 * (0.4 + 0.038 * lead) * temp_e[k] + (3 + 0.05 * lead) * rh_e[k]))
        ws = x["ws"] * math.exp((0.1 + 0.004 * lead) * wind_e[k])
        deg = (x["deg"] + (8 + 0.4 * lead) * dir_e[k]) % 360
        clouds = min(100, max(0, x["clouds"] + (8 + 0.4 * lead) * cloud_e[k]))
        # Rain a few hours early or late, more so further ahead; some events missed.
        shift = int(round(shift_z * (0.5 + lead / 16))) * 3600
        y = truth.get(t - shift, x)
        factor = 0.45 if missed[int(lead // 24)] else 1.0
        pop = min(1.0, max(0.0, y["pop"] * factor + rng.gauss(0, 0.04 + 0.002 * lead)))
        amount = math.exp(rng.gauss(0, 0.35)) * (1.0 if factor == 1 else 0.3)
        rain, snow, kind = y["rain"] * amount, y["snow"] * amount, y["kind"]
        if phantom and phantom[0] <= t < phantom[1] and not kind:
            pop, kind = max(pop, phantom[2]), plan["kinds"][0]
            rain, snow = (0.0, phantom[3]) if kind in SNOWY else (phantom[3], 0.0)
        if pop < 0.5 and kind:
            rain, snow = rain * 0.5, snow * 0.5
        out.append(dict(t=t, temp=temp, rh=rh, pop=pop, rain=rain, snow=snow, kind=kind if rain + snow >= 0.05 else None,
                        ws=ws, deg=deg, clouds=clouds, fog=bool(y["obs"]) and lead < 24))
    return out


def response(c, truth, issued):
    """The Open-Meteo body a fetch at `issued` would have returned."""
    u = Units(c["units"] == "imperial")
    off = c["offset"]
    hour = issued - issued % 3600
    x0, x1 = truth[hour], truth[hour + 3600]
    w = (issued - hour) / 3600
    lerp = lambda key: x0[key] + (x1[key] - x0[key]) * w
    temp, dew = lerp("temp"), min(lerp("dew"), lerp("temp") - 0.3)
    rh = ms.rel_humidity(temp, dew)
    near = x1 if w >= 0.5 else x0
    current = {
        "time": issued, "interval": 900,
        "temperature_2m": u.t(temp),
        "relative_humidity_2m": int(round(min(100, rh))),
        "apparent_temperature": u.t(ms.feels_like(temp, rh, lerp("ws"))),
        "dew_point_2m": u.t(dew),
        "is_day": 1 if x0["day"] else 0,
        "precipitation": u.rain(x0["rain"] + x0["snow"]),
        "rain": u.rain(x0["rain"]),
        "snowfall": u.snow(x0["snow"]),
        "weather_code": WMO[x0["wid"]],
        "cloud_cover": near["clouds"],
        "pressure_msl": near["pressure"],
        "wind_speed_10m": u.w(lerp("ws")),
        "wind_direction_10m": near["deg"],
        "wind_gusts_10m": u.w(max(lerp("ws") * 1.3, lerp("gust"))),
        "visibility": near["vis"],
        "uv_index": round(lerp("uvi"), 2),
    }
    # The days from the local one holding `issued`; hours from the one holding it.
    midnight = issued - (issued + off) % 86400
    series = forecast_series(c, truth, issued, midnight, DAILY * 24)
    by_t = {s["t"]: s for s in series}
    steps = [by_t[hour + k * 3600] for k in range(HOURLY)]
    hourly = {
        "time": [s["t"] for s in steps],
        "temperature_2m": [u.t(s["temp"]) for s in steps],
        "relative_humidity_2m": [int(round(s["rh"])) for s in steps],
        "precipitation_probability": [int(round(100 * s["pop"])) for s in steps],
        "rain": [u.rain(s["rain"]) for s in steps],
        "weather_code": [wmo_for(s["kind"], s["rain"] + s["snow"], s["clouds"], s["fog"]) for s in steps],
        "wind_speed_10m": [u.w(s["ws"]) for s in steps],
        "wind_direction_10m": [int(round(s["deg"])) % 360 for s in steps],
        "cloud_cover": [int(round(s["clouds"])) for s in steps],
    }
    if any(s["snow"] for s in steps):
        hourly["snowfall"] = [u.snow(s["snow"]) for s in steps]
    days = [series[d * 24:(d + 1) * 24] for d in range(DAILY)]
    daily = {"time": [], "weather_code": [], "temperature_2m_max": [], "temperature_2m_min": [],
             "precipitation_probability_max": [], "rain_sum": [], "snowfall_sum": [], "wind_speed_10m_max": []}
    for day in days:
        rain, snow = sum(s["rain"] for s in day), sum(s["snow"] for s in day)
        pop = max(s["pop"] for s in day)
        wet = [s for s in day if s["kind"]]
        kind = max(wet, key=lambda s: s["rain"] + s["snow"])["kind"] if wet and pop >= 0.5 and rain + snow >= 0.3 else None
        daytime = [s["clouds"] for s in day if 7 <= ms.local_hour(s["t"], off) <= 18]
        daily["time"].append(day[0]["t"])
        daily["weather_code"].append(wmo_for(kind, max(s["rain"] + s["snow"] for s in day), sum(daytime) / len(daytime), False))
        daily["temperature_2m_max"].append(u.t(max(s["temp"] for s in day)))
        daily["temperature_2m_min"].append(u.t(min(s["temp"] for s in day)))
        daily["precipitation_probability_max"].append(int(round(100 * pop)))
        daily["rain_sum"].append(u.rain(rain))
        daily["snowfall_sum"].append(u.snow(snow))
        daily["wind_speed_10m_max"].append(u.w(max(s["ws"] for s in day)))
    if not any(daily["snowfall_sum"]):
        del daily["snowfall_sum"]
    body = {
        "latitude": c["lat"], "longitude": c["lon"], "utc_offset_seconds": off, "timezone": c["tz"],
        "current": current, "hourly": hourly, "daily": daily,
    }
    return ms.normalize(body)


def slot_name(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H%MZ")


def generate(out):
    if os.path.isdir(out):
        shutil.rmtree(out)
    written = 0
    report = []
    for c in ms.CITIES:
        truth = simulate(c)
        now = data_time(c)
        issues = [now - k * STEP for k in range(COUNT, 0, -1)]
        bodies = {}
        for issued in issues:
            body = response(c, truth, issued)
            bodies[issued] = body
            # The slot the response was fetched in: the 3-hour mark after its data time.
            slot = issued - issued % STEP + STEP
            folder = os.path.join(out, slot_name(slot), c["slug"])
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "open-meteo-forecast.json"), "w", encoding="utf-8") as f:
                f.write(json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n")
            written += 1
        report.append(verify(c, truth, bodies))
    return written, report


def verify(c, truth, bodies):
    """Mean absolute error of the hourly temperature forecasts 24 h and 72 h ahead against
    the truth, and rain forecasts (chance >= 50 %) against hours that had rain."""
    imperial = c["units"] == "imperial"
    errors = {24: [], 72: []}
    hits = misses = false_alarms = 0
    for issued, body in bodies.items():
        h = body["hourly"]
        for lead in errors:
            target = issued - issued % 3600 + lead * 3600
            if target in h["time"]:
                forecast = h["temperature_2m"][h["time"].index(target)]
                if imperial:
                    forecast = (forecast - 32) * 5 / 9
                errors[lead].append(abs(forecast - truth[target]["temp"]))
        for k, t in enumerate(h["time"][:24]):
            wet = truth[t]["rain"] + truth[t]["snow"] > 0
            said = h["precipitation_probability"][k] >= 50
            hits += wet and said
            misses += wet and not said
            false_alarms += said and not wet
    mae = {lead: sum(e) / len(e) for lead, e in errors.items()}
    return "%-13s MAE 24 h %.2f degC, 72 h %.2f degC; rain in the next 24 h: %d hits, %d misses, %d false alarms" % (
        c["slug"], mae[24], mae[72], hits, misses, false_alarms)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ms.REPO_ROOT, "Samples", "past"))
    args = ap.parse_args()
    written, report = generate(args.out)
    print("wrote %d responses under %s" % (written, os.path.relpath(args.out, os.getcwd())))
    for line in report:
        print(line)


if __name__ == "__main__":
    main()
