#!/usr/bin/env python3
"""Writes reference.json: sunrise, sunset, moonrise, moonset and the moon's phase for a
table of places and local days, computed by PyEphem (`pip install ephem`; 4.2.1 here),
an independent implementation of the full VSOP87 and ELP theories, set up as the US
Naval Observatory's tables count a rise: the upper limb on a level horizon, 34' of
refraction (pressure 0, horizon -0:34). Isobar's own low-precision formulae are checked
against it (`AstronomyTests`). Times are Unix seconds, null where the event does not
happen that local day; the phase is the moon's ecliptic longitude less the sun's, in
turns, at local noon. Run again only to add places; the output is deterministic."""
import datetime
import json
import math
import sys
from zoneinfo import ZoneInfo

import ephem

PLACES = [
    # name, latitude, longitude, zone, local days
    ("London", 51.5074, -0.1278, "Europe/London", ["2026-03-29", "2026-06-21", "2026-12-21"]),
    ("Oslo", 59.9139, 10.7522, "Europe/Oslo", ["2026-11-26"]),
    ("Tromsø", 69.6492, 18.9553, "Europe/Oslo", ["2026-02-10", "2026-06-21", "2026-11-20", "2026-12-15"]),
    ("Longyearbyen", 78.2232, 15.6267, "Arctic/Longyearbyen", ["2026-04-25", "2026-10-20"]),
    ("McMurdo", -77.8419, 166.6863, "Antarctica/McMurdo", ["2026-06-21", "2026-12-21"]),
    ("Reykjavík", 64.1466, -21.9426, "Atlantic/Reykjavik", ["2026-12-21"]),
    ("Quito", -0.1807, -78.4678, "America/Guayaquil", ["2026-09-23"]),
    ("New York", 40.7128, -74.0060, "America/New_York", ["2026-11-01", "2026-11-26"]),
    ("Honolulu", 21.3069, -157.8583, "Pacific/Honolulu", ["2026-02-14"]),
    ("Tokyo", 35.6762, 139.6503, "Asia/Tokyo", ["2026-07-07"]),
    ("Sydney", -33.8688, 151.2093, "Australia/Sydney", ["2026-01-15", "2026-10-04"]),
    ("Cape Town", -33.9249, 18.4241, "Africa/Johannesburg", ["2026-05-05"]),
    ("Kiritimati", 1.8721, -157.4278, "Pacific/Kiritimati", ["2026-08-01"]),
]


def event(observer, body, start, end, rising):
    observer.date = ephem.Date(start)
    try:
        found = (observer.next_rising if rising else observer.next_setting)(body)
    except (ephem.AlwaysUpError, ephem.NeverUpError):
        return None
    moment = found.datetime().replace(tzinfo=datetime.timezone.utc)
    return round(moment.timestamp()) if moment < end else None


def phase(noon):
    sun, moon = ephem.Sun(ephem.Date(noon)), ephem.Moon(ephem.Date(noon))
    ahead = math.degrees(ephem.Ecliptic(moon).lon - ephem.Ecliptic(sun).lon) % 360
    return round(ahead / 360, 4)


def main():
    rows = []
    for name, lat, lon, zone, days in PLACES:
        tz = ZoneInfo(zone)
        for day in days:
            date = datetime.date.fromisoformat(day)
            start = datetime.datetime.combine(date, datetime.time(0), tz).astimezone(datetime.timezone.utc)
            end = datetime.datetime.combine(date + datetime.timedelta(days=1), datetime.time(0), tz).astimezone(datetime.timezone.utc)
            noon = datetime.datetime.combine(date, datetime.time(12), tz).astimezone(datetime.timezone.utc)
            observer = ephem.Observer()
            observer.lat, observer.lon = str(lat), str(lon)
            observer.elevation = 0
            observer.pressure = 0
            observer.horizon = "-0:34"
            row = {"place": name, "latitude": lat, "longitude": lon, "zone": zone, "day": day}
            for key, body, rising in [("sunrise", ephem.Sun(), True), ("sunset", ephem.Sun(), False),
                                      ("moonrise", ephem.Moon(), True), ("moonset", ephem.Moon(), False)]:
                row[key] = event(observer, body, start, end, rising)
            row["moonPhase"] = phase(noon)
            rows.append(row)
    json.dump({"source": "PyEphem " + ephem.__version__ + ", USNO conventions (see make_reference.py)", "days": rows},
              sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


main()
