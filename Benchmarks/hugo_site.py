"""The Hugo side of the benchmark: a site equivalent to Isobar's output for the same
cities, written by generate.py into DIR/hugo/.

Layout of the generated site:

  config.toml                        minimal; no RSS, no taxonomies; sitemap and robots.txt kept
                                     (Isobar writes both)
  content/_index.md                  the home page
  content/<slug>/index.md            one leaf bundle per city (front matter: title, country, slug,
                                     weight = config order)
  data/cities/<slug>.json            the city's One Call body   } --hugo-data data (default)
  data/air/<slug>.json               its Air Pollution body     }
  content/<slug>/onecall.json        the same, as page resources, --hugo-data resource
  content/<slug>/air_pollution.json  (not published: _build.publishResources = false)
  layouts/                           home (a card per city), city page, forecast.json, 404
  static/assets/                     a copy of the repo's Public/ (style.css, icons, share.js)

The JSON files are hard links to DIR/Samples/<slug>/*.json (copies across file systems).
Each city page renders what Isobar's city page shows except what is only Isobar's (places
map, share box, moon/Beaufort wording): current conditions (icon by icon id, description,
temperature, feels-like, high/low, wind with compass point and gusts, humidity, dew point,
pressure, visibility, cloud cover, rain/snow of the last hour, UV, air quality, sunrise,
sunset), alerts, an SVG temperature/precipitation chart, the 48-row hourly table (time,
icon, temperature, chance of precipitation, wind) and the 8-row daily list (weekday, icon,
low/high with a bar on one scale, chance of precipitation, summary), all in the city's
local time.  Each city also gets forecast.json (a normalised subset, like Isobar's).
"""

import json
import os
import shutil

CONFIG = """\
baseURL = "https://bench.example.org/"
languageCode = "en"
title = "Isobar Bench"
timeZone = "UTC"
disableKinds = ["taxonomy", "term", "RSS"]
enableRobotsTXT = true
disableHugoGeneratorInject = true

[outputFormats.Forecast]
mediaType = "application/json"
baseName = "forecast"
isPlainText = true
notAlternative = true

[outputs]
home = ["HTML"]
page = ["HTML", "Forecast"]

[sitemap]
changefreq = ""
priority = -1
filename = "sitemap.xml"
"""

BASEOF = """\
{{- $root := cond .IsHome "" (cond (eq .Kind "404") "/" "../") -}}
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ block "title" . }}{{ site.Title }}{{ end }}</title>
<meta name="description" content="{{ block "description" . }}Weather for every city{{ end }}">
<link rel="canonical" href="{{ .Permalink }}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="{{ site.Title }}">
<meta property="og:title" content="{{ .Title }}">
<meta property="og:url" content="{{ .Permalink }}">
<meta name="twitter:card" content="summary">
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="{{ $root }}assets/style.css">
<link rel="icon" href="{{ $root }}assets/icons/02d.svg" type="image/svg+xml">
<script src="{{ $root }}assets/share.js" defer></script>
</head>
<body class="page-{{ cond .IsHome "index" (cond (eq .Kind "404") "not-found" "city") }}">
<header class="site-header">
<a class="site-title" href="{{ $root }}index.html"><img src="{{ $root }}assets/icons/02d.svg" alt="" width="28" height="28">{{ site.Title }}</a>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<footer class="site-footer">
<p>Weather data by: <a href="https://openweathermap.org/">OpenWeather</a> · Hugo</p>
</footer>
</body>
</html>
"""

# {{ partial "data" . }} returns the city's One Call body and Air Pollution body.
DATA_PARTIAL = {
    "data": """\
{{- return dict "oc" (index site.Data.cities .Params.city) "air" (index site.Data.air .Params.city) -}}
""",
    "resource": """\
{{- return dict "oc" ((.Resources.Get "onecall.json") | transform.Unmarshal) "air" ((.Resources.Get "air_pollution.json") | transform.Unmarshal) -}}
""",
}

INDEX = """\
{{ define "main" }}
<h1>{{ site.Title }}</h1>
<p>Current conditions and the forecast for every city.</p>
<ul class="cards">
{{- range site.RegularPages }}
{{- $d := (partial "data" .).oc }}
{{- $off := int $d.timezone_offset }}
{{- $c := $d.current }}
{{- $w := index $c.weather 0 }}
{{- $today := index $d.daily 0 }}
{{- $alerts := $d.alerts | default slice }}
<li class="card{{ if $alerts }} card-alert{{ end }}">
<a href="{{ .Params.city }}/index.html">
<img src="assets/icons/{{ $w.icon }}.svg" alt="{{ $w.description }}" width="64" height="64">
<span class="card-body">
<span class="card-name">{{ .Title }} <span class="card-country">{{ .Params.country }}</span></span>
<span class="card-temp">{{ printf "%.0f°" $c.temp }}</span>
<span class="card-condition">{{ $w.description }}</span>
<span class="card-range">High {{ printf "%.0f°" $today.temp.max }} · Low {{ printf "%.0f°" $today.temp.min }}</span>
{{- with $alerts }}
<span class="card-alert-marker"><span aria-hidden="true">⚠</span> {{ len . }} {{ cond (eq (len .) 1) "alert" "alerts" }}</span>
{{- end }}
<span class="card-updated">Updated {{ (time (int (add $c.dt $off))).UTC.Format "15:04" }} local time</span>
</span>
</a>
</li>
{{- end }}
</ul>
{{ end }}
"""

SINGLE = """\
{{ define "title" }}{{ .Title }} weather · {{ site.Title }}{{ end }}
{{ define "description" }}{{ $d := (partial "data" .).oc }}{{ .Title }}: {{ printf "%.0f°" $d.current.temp }} · {{ (index $d.current.weather 0).description }}{{ end }}
{{ define "main" }}
{{- $data := partial "data" . }}
{{- $d := $data.oc }}
{{- $air := index $data.air.list 0 }}
{{- $off := int $d.timezone_offset }}
{{- $c := $d.current }}
{{- $w := index $c.weather 0 }}
{{- $today := index $d.daily 0 }}
{{- $dirs := slice "N" "NNE" "NE" "ENE" "E" "ESE" "SE" "SSE" "S" "SSW" "SW" "WSW" "W" "WNW" "NW" "NNW" }}
{{- $aqi := slice "" "Good" "Fair" "Moderate" "Poor" "Very poor" }}
<nav class="breadcrumb" aria-label="Breadcrumb"><a href="../index.html">All cities</a></nav>
<h1>{{ .Title }}, {{ .Params.country }}</h1>
<p class="updated">Updated <time datetime="{{ (time (int $c.dt)).UTC.Format "2006-01-02T15:04:05Z" }}">{{ (time (int (add $c.dt $off))).UTC.Format "15:04" }}</time> local time · {{ (time (int (add $c.dt $off))).UTC.Format "Monday 2 January" }}</p>
<section class="now" aria-labelledby="now-heading">
<h2 id="now-heading">Now</h2>
<div class="now-main">
<img class="now-icon" src="../assets/icons/{{ $w.icon }}.svg" alt="{{ $w.description }}" width="96" height="96">
<div>
<p class="now-temp">{{ printf "%.0f°C" $c.temp }}</p>
<p class="now-desc">{{ $w.description }}</p>
<p class="now-feels">Feels like {{ printf "%.0f°" $c.feels_like }} · High {{ printf "%.0f°" $today.temp.max }} · Low {{ printf "%.0f°" $today.temp.min }}</p>
</div>
</div>
<div class="wind">
<p class="wind-text"><span class="wind-label">Wind</span> <strong>{{ printf "%.0f m/s" $c.wind_speed }}</strong> from {{ index $dirs (mod (int (math.Round (div $c.wind_deg 22.5))) 16) }}{{ with $c.wind_gust }}, gusts {{ printf "%.0f m/s" . }}{{ end }}</p>
<svg class="wind-arrow" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" style="transform: rotate({{ mod (add (int $c.wind_deg) 180) 360 }}deg)"><path d="M16 3 L23 17 L17.5 15 L17.5 29 L14.5 29 L14.5 15 L9 17 Z"/></svg>
</div>
<dl class="now-details">
<div><dt>Humidity</dt><dd>{{ $c.humidity }}%</dd></div>
<div><dt>Dew point</dt><dd>{{ printf "%.0f°" $c.dew_point }}</dd></div>
<div><dt>Pressure</dt><dd>{{ $c.pressure }} hPa</dd></div>
<div><dt>Visibility</dt><dd>{{ printf "%.1f km" (div $c.visibility 1000.0) }}</dd></div>
<div><dt>Cloud cover</dt><dd>{{ $c.clouds }}%</dd></div>
{{- with $c.rain }}
<div><dt>Rain, last hour</dt><dd>{{ printf "%.1f mm" (index . "1h") }}</dd></div>
{{- end }}
{{- with $c.snow }}
<div><dt>Snow, last hour</dt><dd>{{ printf "%.1f mm" (index . "1h") }}</dd></div>
{{- end }}
<div><dt>UV index</dt><dd>{{ printf "%.0f" $c.uvi }}</dd></div>
<div><dt>Air quality</dt><dd><span class="badge aqi-{{ $air.main.aqi }}">{{ $air.main.aqi }} · {{ index $aqi (int $air.main.aqi) }}</span></dd></div>
<div><dt>Sunrise</dt><dd>{{ (time (int (add $c.sunrise $off))).UTC.Format "15:04" }}</dd></div>
<div><dt>Sunset</dt><dd>{{ (time (int (add $c.sunset $off))).UTC.Format "15:04" }}</dd></div>
</dl>
<p class="pollutants"><span class="pollutants-label">Main pollutants:</span> <span>PM2.5 {{ $air.components.pm2_5 }}</span> <span>PM10 {{ $air.components.pm10 }}</span> <span>NO₂ {{ $air.components.no2 }}</span> <span>O₃ {{ $air.components.o3 }}</span></p>
</section>
{{- with $d.alerts }}
<section class="alerts" aria-labelledby="alerts-heading">
<h2 id="alerts-heading"><span aria-hidden="true">⚠</span> Weather alerts</h2>
{{- range . }}
<article class="alert">
<h3>{{ .event }}</h3>
<p class="alert-meta">{{ .sender_name }} · <time>{{ (time (int (add .start $off))).UTC.Format "Mon 15:04" }}</time> – <time>{{ (time (int (add .end $off))).UTC.Format "Mon 15:04" }}</time></p>
<p class="alert-text">{{ .description }}</p>
</article>
{{- end }}
</section>
{{- end }}
{{- $lo := 1000.0 }}{{ $hi := -1000.0 }}
{{- range $d.hourly }}{{ if lt .temp $lo }}{{ $lo = .temp }}{{ end }}{{ if gt .temp $hi }}{{ $hi = .temp }}{{ end }}{{ end }}
{{- $span := math.Max 1.0 (sub $hi $lo) }}
{{- $pts := slice }}{{ $bars := slice }}
{{- range $i, $h := $d.hourly }}
{{- $x := add 30 (mul $i 12) }}
{{- $pts = $pts | append (printf "%d,%.1f" $x (sub 150.0 (mul 120.0 (div (sub $h.temp $lo) $span)))) }}
{{- end }}
<section class="hourly" aria-labelledby="hourly-heading">
<h2 id="hourly-heading">Next 48 hours <small>(hourly)</small></h2>
<div class="chart-figure" tabindex="0" role="region" aria-label="Temperature and chance of precipitation">
<svg viewBox="0 0 620 180" width="620" height="180" role="img" aria-label="Temperature from {{ printf "%.0f°" $lo }} to {{ printf "%.0f°" $hi }}">
{{- range $i, $h := $d.hourly }}{{ if $h.pop }}<rect x="{{ add 25 (mul $i 12) }}" y="{{ printf "%.1f" (sub 170.0 (mul 60.0 $h.pop)) }}" width="10" height="{{ printf "%.1f" (mul 60.0 $h.pop) }}" class="pop"/>{{ end }}{{ end }}
<polyline class="temp" fill="none" points="{{ delimit $pts " " }}"/>
</svg>
</div>
<div class="table-scroll" tabindex="0" role="region" aria-label="Hourly forecast">
<table>
<thead><tr><th scope="col">Time</th><th scope="col">Sky</th><th scope="col">Temperature (°C)</th><th scope="col">Precipitation</th><th scope="col">Wind</th></tr></thead>
<tbody>
{{- range $d.hourly }}
{{- $hw := index .weather 0 }}
<tr><th scope="row"><time datetime="{{ (time (int .dt)).UTC.Format "2006-01-02T15:04:05Z" }}">{{ (time (int (add .dt $off))).UTC.Format "Mon 15:04" }}</time></th><td><img src="../assets/icons/{{ $hw.icon }}.svg" alt="{{ $hw.description }}" width="32" height="32"></td><td>{{ printf "%.0f°" .temp }}</td><td>{{ printf "%.0f%%" (mul .pop 100.0) }} <span class="pop-kind">{{ if le .temp 0.0 }}snow{{ else }}rain{{ end }}</span></td><td>{{ printf "%.0f m/s" .wind_speed }} {{ index $dirs (mod (int (math.Round (div .wind_deg 22.5))) 16) }}</td></tr>
{{- end }}
</tbody>
</table>
</div>
</section>
{{- $wlo := 1000.0 }}{{ $whi := -1000.0 }}
{{- range $d.daily }}{{ if lt .temp.min $wlo }}{{ $wlo = .temp.min }}{{ end }}{{ if gt .temp.max $whi }}{{ $whi = .temp.max }}{{ end }}{{ end }}
{{- $wspan := math.Max 1.0 (sub $whi $wlo) }}
<section class="daily" aria-labelledby="daily-heading">
<h2 id="daily-heading">Next days</h2>
<ol class="days">
{{- range $d.daily }}
{{- $dw := index .weather 0 }}
{{- $local := (time (int (add .dt $off))).UTC }}
<li>
<span class="day-name"><time datetime="{{ $local.Format "2006-01-02" }}">{{ $local.Format "Mon" }} <span class="day-date">{{ $local.Format "2 Jan" }}</span></time></span>
<img src="../assets/icons/{{ $dw.icon }}.svg" alt="{{ $dw.description }}" width="40" height="40">
<span class="day-temps"><span class="low">{{ printf "%.0f°" .temp.min }}</span><span class="range" aria-hidden="true"><span class="range-bar" style="margin-left: {{ printf "%.1f" (mul 100.0 (div (sub .temp.min $wlo) $wspan)) }}%; width: {{ printf "%.1f" (mul 100.0 (div (sub .temp.max .temp.min) $wspan)) }}%"></span></span><span class="high">{{ printf "%.0f°" .temp.max }}</span></span>
<span class="day-pop">{{ printf "%.0f%%" (mul .pop 100.0) }} <span class="pop-kind">{{ if .snow }}snow{{ else }}rain{{ end }}</span></span>
<span class="day-summary">{{ .summary }}</span>
</li>
{{- end }}
</ol>
</section>
{{ end }}
"""

FORECAST_JSON = """\
{{- $data := partial "data" . }}
{{- $d := $data.oc }}
{{- $air := index $data.air.list 0 }}
{{- $iso := "2006-01-02T15:04:05Z" }}
{{- $c := $d.current }}
{{- $hourly := slice }}
{{- range $d.hourly }}
{{- $hourly = $hourly | append (dict "time" ((time (int .dt)).UTC.Format $iso) "temperature" .temp "feelsLike" .feels_like "humidity" .humidity "pressure" .pressure "windSpeed" .wind_speed "windDirection" .wind_deg "windGust" .wind_gust "precipitationChance" .pop "condition" (index .weather 0)) }}
{{- end }}
{{- $daily := slice }}
{{- range $d.daily }}
{{- $daily = $daily | append (dict "day" ((time (int (add .dt $d.timezone_offset))).UTC.Format "2006-01-02") "min" .temp.min "max" .temp.max "precipitationChance" .pop "summary" .summary "sunrise" ((time (int .sunrise)).UTC.Format $iso) "sunset" ((time (int .sunset)).UTC.Format $iso) "condition" (index .weather 0)) }}
{{- end }}
{{- $current := dict "time" ((time (int $c.dt)).UTC.Format $iso) "temperature" $c.temp "feelsLike" $c.feels_like "humidity" $c.humidity "pressure" $c.pressure "windSpeed" $c.wind_speed "windDirection" $c.wind_deg "cloudCover" $c.clouds "visibility" $c.visibility "conditions" $c.weather }}
{{- $city := dict "name" .Title "country" .Params.country "slug" .Params.city "latitude" $d.lat "longitude" $d.lon "timeZone" $d.timezone }}
{{- dict "city" $city "forecast" (dict "current" $current "hourly" $hourly "daily" $daily "alerts" ($d.alerts | default slice) "airQuality" (dict "index" $air.main.aqi "components" $air.components)) | jsonify (dict "indent" "  ") }}
"""

NOT_FOUND = """\
{{ define "main" }}
<h1>Page not found</h1>
<p><a href="/">All cities</a></p>
{{ end }}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_skeleton(hugo, repo, mode):
    write(os.path.join(hugo, "config.toml"), CONFIG)
    write(os.path.join(hugo, "content", "_index.md"), "---\ntitle: Isobar Bench\n---\n")
    lay = os.path.join(hugo, "layouts")
    write(os.path.join(lay, "_default", "baseof.html"), BASEOF)
    write(os.path.join(lay, "index.html"), INDEX)
    write(os.path.join(lay, "_default", "single.html"), SINGLE)
    write(os.path.join(lay, "_default", "single.forecast.json"), FORECAST_JSON)
    write(os.path.join(lay, "404.html"), NOT_FOUND)
    write(os.path.join(lay, "partials", "data.html"), DATA_PARTIAL[mode])
    shutil.copytree(os.path.join(repo, "Public"), os.path.join(hugo, "static", "assets"))
    if mode == "data":
        os.makedirs(os.path.join(hugo, "data", "cities"))
        os.makedirs(os.path.join(hugo, "data", "air"))


def _link(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


def write_city(hugo, c, weight, onecall_path, air_path, mode):
    slug = c["slug"]
    d = os.path.join(hugo, "content", slug)
    os.mkdir(d)
    fm = ["---",
          "title: %s" % json.dumps(c["name"], ensure_ascii=False),
          "city: %s" % slug,
          "country: %s" % c["country"],
          "weight: %d" % (weight + 1)]
    if mode == "resource":
        fm += ["_build:", "  publishResources: false"]
    fm.append("---")
    with open(os.path.join(d, "index.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(fm) + "\n")
    if mode == "data":
        _link(onecall_path, os.path.join(hugo, "data", "cities", slug + ".json"))
        _link(air_path, os.path.join(hugo, "data", "air", slug + ".json"))
    else:
        _link(onecall_path, os.path.join(d, "onecall.json"))
        _link(air_path, os.path.join(d, "air_pollution.json"))
