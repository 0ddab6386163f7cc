import CCrypto
import Foundation

/// The site owner's WeatherKit private key, held by libcrypto: an EC key on P-256, as the
/// `.p8` files Apple's developer site hands out are (PKCS#8 PEM, "BEGIN PRIVATE KEY").
/// It signs the tokens ES256 (`WeatherKitToken`). Nothing here ever puts the key's text
/// into a message: errors name where it was read from, never what it holds.
final class WeatherKitKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never changed after loading; libcrypto lets threads sign
    // with one key at once, each through a context of its own.
    private let key: OpaquePointer

    /// `origin`: where the text came from, for messages ("AuthKey_ABC.p8", "the variable X").
    init(pem: Data, origin: String) throws {
        let unreadable = IsobarError(
            step: .config, message: "the WeatherKit key in \(origin) cannot be read: it is not an unencrypted PEM private key",
            hint: "use the .p8 file Apple's developer site gave you as it is (\"-----BEGIN PRIVATE KEY-----\" …)")
        let read: OpaquePointer? = pem.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            // A password callback that gives none: an encrypted key fails instead of
            // prompting on a terminal cron does not have.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        ERR_clear_error()
        guard let read else { throw unreadable }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        let isP256 = EVP_PKEY_get_base_id(read) == EVP_PKEY_EC
            && EVP_PKEY_get_group_name(read, &name, name.count, &length) == 1
            && String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        guard isP256 else {
            EVP_PKEY_free(read)
            throw IsobarError(step: .config, message: "the WeatherKit key in \(origin) is not an EC P-256 key, which WeatherKit's ES256 tokens need",
                              hint: "use the .p8 file of a key created with WeatherKit enabled (Certificates, Identifiers & Profiles → Keys)")
        }
        key = read
    }

    deinit { EVP_PKEY_free(key) }

    /// Reads the key from its configured source.
    static func load(_ source: WeatherKitSettings.KeySource, variables: [String: String]) throws -> WeatherKitKey {
        switch source {
        case .file(let file):
            guard let pem = FileManager.default.contents(atPath: file.path) else {
                throw IsobarError(step: .config, path: file.path, message: "cannot read the WeatherKit key (weatherkit.private_key_file)",
                                  hint: "check the path (relative to the config file) and that this user may read the file")
            }
            return try WeatherKitKey(pem: pem, origin: file.path)
        case .environment(let variable):
            guard var text = variables[variable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw IsobarError(step: .config, message: "no WeatherKit key: the environment variable \(variable) (weatherkit.private_key_env) is not set",
                                  hint: "export \(variable)=\"$(cat AuthKey_ABC123DEFG.p8)\", or build from the cache with --offline")
            }
            // A key pasted into one line of a secret store often has its line breaks as `\n`.
            if !text.contains("\n") { text = text.replacingOccurrences(of: "\\n", with: "\n") }
            return try WeatherKitKey(pem: Data(text.utf8), origin: "the environment variable \(variable)")
        }
    }

    /// The ES256 signature of `message` as JWS wants it (RFC 7518, 3.4): r and s, 32 bytes
    /// each, not the DER sequence libcrypto produces.
    func sign(_ message: Data) throws -> Data {
        let failed = IsobarError(step: .fetch, message: "libcrypto could not sign the WeatherKit token")
        guard let context = EVP_MD_CTX_new() else { throw failed }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { ERR_clear_error(); throw failed }
        var der = [UInt8](repeating: 0, count: 80)  // at most 72 bytes for P-256
        var length = der.count
        let signed = message.withUnsafeBytes { raw in
            EVP_DigestSign(context, &der, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        guard signed == 1 else { ERR_clear_error(); throw failed }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var start: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &start, length)
        }
        guard let parsed else { ERR_clear_error(); throw failed }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let padded = raw.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(r, buffer.baseAddress, 32) == 32 && BN_bn2binpad(s, buffer.baseAddress! + 32, 32) == 32
        }
        guard padded else { throw failed }
        return Data(raw)
    }
}
