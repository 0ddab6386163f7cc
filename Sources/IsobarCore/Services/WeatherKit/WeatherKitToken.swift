import Foundation

/// The developer token every WeatherKit request carries (`Authorization: Bearer …`), as
/// "Request authentication for WeatherKit REST API" describes it: a JWT whose header names
/// the key (`kid`) and the team and service (`id`: "TEAM.SERVICE"), whose claims are
/// exactly `iss` (team), `iat`, `exp` and `sub` (service), signed ES256 with the key.
///
/// One token serves every city of a run while it has more than `renewBefore` left: made
/// once, not per request.
final class WeatherKitToken: @unchecked Sendable {
    // @unchecked: `issued` is only touched under its lock.
    struct Header: Encodable { var alg = "ES256"; var kid: String; var id: String }
    struct Claims: Encodable { var iss: String; var iat: Int; var exp: Int; var sub: String }

    let teamID: String
    let serviceID: String
    let keyID: String
    private let key: WeatherKitKey
    /// How long a token is valid: an hour (Apple: "shorter times ensure a higher level of security").
    let lifetime: TimeInterval
    let renewBefore: TimeInterval = 300
    /// The wall clock, never the build's (`SOURCE_DATE_EPOCH` may pin that in the past,
    /// and Apple checks `exp` against its own).
    private let now: @Sendable () -> Date
    private let issued = Locked<(token: String, expires: Date)?>(nil)

    init(teamID: String, serviceID: String, keyID: String, key: WeatherKitKey, lifetime: TimeInterval = 3600,
         now: @escaping @Sendable () -> Date = { Date() }) {
        self.teamID = teamID
        self.serviceID = serviceID
        self.keyID = keyID
        self.key = key
        self.lifetime = lifetime
        self.now = now
    }

    /// The run's token, made anew only when the last one is about to expire.
    func current() throws -> String {
        try issued.withLock { issued in
            let time = now()
            if let issued, issued.expires.timeIntervalSince(time) > renewBefore { return issued.token }
            let made = try make(at: time)
            issued = (made, time.addingTimeInterval(lifetime))
            return made
        }
    }

    /// `header.claims.signature`, each part base64url without padding (RFC 7515).
    func make(at time: Date) throws -> String {
        let iat = Int(time.timeIntervalSince1970)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = try encoder.encode(Header(kid: keyID, id: "\(teamID).\(serviceID)"))
        let claims = try encoder.encode(Claims(iss: teamID, iat: iat, exp: iat + Int(lifetime), sub: serviceID))
        let signingInput = Self.base64URL(header) + "." + Self.base64URL(claims)
        return signingInput + "." + Self.base64URL(try key.sign(Data(signingInput.utf8)))
    }

    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
