#!/usr/bin/env python3
"""Writes a recorded-style MeteoAlarm feed for Norway (Samples/_meteoalarm/norway/
meteoalarm-warnings.json), the warnings the demo's Norwegian cities (Bergen on the MET
Norway demo, Oslo on the Open-Meteo one) are built with offline, and a quiet day's feed
for Portugal (Lisbon, on the Open-Meteo demo: no warning in force). No network; SAMPLE
DATA: the warnings are invented, and each says so in its text and in CAP's `note`.

Shape: MeteoAlarm's `GET https://feeds.meteoalarm.org/api/v1/warnings/feeds-norway`:
`{"warnings": [{"alert": {…}, "uuid": …}]}`, each `alert` a CAP 1.2 message as JSON
(http://docs.oasis-open.org/emergency/cap/v1.2/CAP-v1.2-os.html) with one `info` block
per language (MET Norway sends `no` and `en-GB`), each with MeteoAlarm's `parameter`s
(`awareness_level` "2; yellow; Moderate", `awareness_type` "1; Wind") and `area`s with
`areaDesc`, `polygon` ("lat,lon …", the first point repeated last) and `geocode`
(EMMA_ID). The feed is stored once per country, not per city (README, "Weather warnings").

The weather matches the MET Norway sample (make_met_norway_samples.py): a southwesterly
gale on the coast of Western Norway on the afternoon of the 22nd, and the thundery front
after it; Oslo, in the east, has no warning.
Run from anywhere: python3 Benchmarks/tools/make_meteoalarm_samples.py
"""
import json, pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2] / "Samples"
SENT = "2026-11-22T09:14:00+01:00"  # before the demo's data time, 2026-11-22 12:00 UTC
NOTE = "Sample data for the Isobar demo, not issued by MET Norway."
# Rough outlines (lat,lon) of the two coastal counties warned: Bergen lies in Vestland.
VESTLAND = "59.65,4.60 61.95,4.60 62.05,6.00 61.55,8.30 60.55,8.30 59.65,6.80 59.65,4.60"
AGDER = "57.95,6.55 58.95,6.55 59.40,7.60 58.90,9.30 58.15,8.40 57.95,6.55"


def info(language, headline, description, instruction, level, kind, area, polygon, emma, onset, expires, severity):
    return {
        "language": language, "category": ["Met"], "event": kind.split("; ")[1], "responseType": ["Monitor"],
        "urgency": "Future", "severity": severity, "certainty": "Likely",
        "effective": SENT, "onset": onset, "expires": expires,
        "senderName": "MET Norway" if language.startswith("en") else "Meteorologisk institutt",
        "headline": headline, "description": description + " " + NOTE, "instruction": instruction,
        "web": "https://www.met.no/en/weather-and-climate/weather-warnings",
        "parameter": [{"valueName": "awareness_level", "value": level}, {"valueName": "awareness_type", "value": kind}],
        "area": [{"areaDesc": area, "polygon": [polygon], "geocode": [{"valueName": "EMMA_ID", "value": emma}]}],
    }


def alert(number, infos):
    identifier = f"2.49.0.0.578.0.NO.261122091400.{number}"
    return {"alert": {"identifier": identifier, "sender": "sample@isobar.invalid", "sent": SENT, "status": "Actual",
                      "msgType": "Alert", "scope": "Public", "note": NOTE, "info": infos},
            "uuid": f"00000000-0000-4000-8000-00000000000{number}"}


feed = {"warnings": [
    alert(1, [
        info("no", "Gult farevarsel for kraftig vind, Vestland",
             "Søndag ettermiddag og kveld sørvestlig stiv kuling 15 m/s, i utsatte strøk sterk kuling 20 m/s. Vindkast opptil 30 m/s.",
             "Sikre løse gjenstander. Vær forberedt på forsinkelser i trafikken og i ferjesambandene.",
             "2; yellow; Moderate", "1; Wind", "Vestland", VESTLAND, "NO046",
             "2026-11-22T14:00:00+01:00", "2026-11-23T04:00:00+01:00", "Moderate"),
        info("en-GB", "Yellow warning for wind, Vestland",
             "Sunday afternoon and evening southwesterly near gale 15 m/s, strong gale 20 m/s in exposed areas. Gusts up to 30 m/s.",
             "Secure loose objects. Be prepared for delays in traffic and on ferry connections.",
             "2; yellow; Moderate", "1; Wind", "Vestland", VESTLAND, "NO046",
             "2026-11-22T14:00:00+01:00", "2026-11-23T04:00:00+01:00", "Moderate"),
    ]),
    alert(2, [
        info("en-GB", "Yellow warning for rain, Agder",
             "Monday heavy rain, 40 to 60 mm in 24 hours, locally more in the mountains.",
             "Keep drains and gutters clear. Avoid low-lying roads near rivers.",
             "2; yellow; Moderate", "10; Rain", "Agder", AGDER, "NO042",
             "2026-11-23T06:00:00+01:00", "2026-11-24T06:00:00+01:00", "Moderate"),
    ]),
]}
# Portugal (Lisbon, on the Open-Meteo demo) on a quiet day: the feed answers, with no warning.
for country, body in [("norway", feed), ("portugal", {"warnings": []})]:
    folder = ROOT / "_meteoalarm" / country
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meteoalarm-warnings.json").write_text(json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote", folder / "meteoalarm-warnings.json")
