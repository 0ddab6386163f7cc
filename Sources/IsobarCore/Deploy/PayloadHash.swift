import CCrypto
import Foundation

/// The SHA-256 of an upload's bytes, in hex: S3 signs it (`x-amz-content-sha256`) and
/// refuses a body that arrives with another hash, so a file cut short in transit is never
/// stored.
enum PayloadHash {
    static func sha256(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        data.withUnsafeBytes { raw in
            _ = EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
