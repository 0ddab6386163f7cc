/// What one city's build reads besides its responses, gathered once when the city starts
/// from what the steps before Cities made for every city: the city's steps read this value,
/// never those steps' tables.
struct CityInputs: Sendable {
    var city: CityConfig
    /// Its last build, as the manifest recorded it (nil for a city new to the site).
    var previous: Manifest.City?
    /// Its map over tiles (nil: the drawing alone).
    var map: CityMap?
    /// Its climate normals (nil: none on its page).
    var normals: ClimateNormals?
    var places: [Place]
    /// What the history holds of it, as far as its pages show it.
    var history: String
    /// The files it writes.
    var outputs: [CityOutput]
}

extension CityBuilder {
    func inputs(of city: CityConfig) -> CityInputs {
        CityInputs(city: city, previous: output.previous.cities[city.slug], map: maps[city.slug], normals: normals[city.slug],
                   places: inputs.places[city.slug] ?? [], history: inputs.history?.fingerprint(of: city.slug) ?? "no history",
                   outputs: inputs.outputs(of: city))
    }
}
