import CCurl
import Foundation

/// An S3 bucket (`s3://bucket/prefix/`), on AWS or an S3-compatible service at `endpoint`,
/// through libcurl's SigV4 signing; one connection per worker, kept for the deploy. A PUT
/// replaces an object in one step, so no temporary name is needed: a visitor gets the old
/// object or the new one. Each object is stored with its media type (S3 serves what it was
/// given) and its SHA-256, which S3 checks before it stores the bytes.
final class S3Destination: DeployDestination {
    let bucket: S3Bucket
    let keyVariables: (access: String, secret: String)
    private let session: CurlSession

    init(_ bucket: S3Bucket, keyVariables: (access: String, secret: String)) throws {
        self.bucket = bucket
        self.keyVariables = keyVariables
        session = try CurlSession("S3")
    }

    /// SigV4 signs the path as sent, so each name is encoded the strict way S3 does: all
    /// but letters, digits and `-._~`.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `path`: the site's file, nil for the bucket itself; `query` in the order signed
    /// (sorted, as SigV4's canonical form has it).
    private func prepare(_ path: String?, method: String, query: [(String, String)] = []) {
        let key = path.map { path in
            (bucket.prefix + path).split(separator: "/", omittingEmptySubsequences: false)
                .map { Self.encoded(String($0)) }
                .joined(separator: "/")
        } ?? ""
        let parameters = query.map { "\($0)=\(Self.encoded($1))" }.joined(separator: "&")
        session.reset(url: bucket.base + key + (parameters.isEmpty ? "" : "?" + parameters), timeout: bucket.timeout)
        // The path goes out exactly as it was signed: libcurl would otherwise squash any
        // `.` or `..` in it after signing (`SitePath` keeps them out of a key anyway).
        session.set(CURLOPT_PATH_AS_IS, 1)
        session.set(CURLOPT_CUSTOMREQUEST, method)
        session.set(CURLOPT_AWS_SIGV4, "aws:amz:\(bucket.region):s3")
        session.set(CURLOPT_USERNAME, bucket.accessKey ?? "")
        session.set(CURLOPT_PASSWORD, bucket.secretKey ?? "")
        if let ca = bucket.caFile { session.set(CURLOPT_CAINFO, ca) }
    }

    private func check(_ failure: CurlSession.Failure?, what: String, allowing allowed: Set<Int> = []) throws {
        if let failure {
            let hint: String? = switch failure.code {
            case CURLE_PEER_FAILED_VERIFICATION: "the endpoint's certificate is not trusted: name its CA in `ca_file`"
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT: "is the service up, and `endpoint:` right?"
            default: nil
            }
            throw DeployFailure(message: "\(what): \(failure.reason)", hint: hint, transient: failure.transient)
        }
        let status = session.responseCode
        guard !(200...299).contains(status), !allowed.contains(status) else { return }
        let document = String(decoding: session.responseBody, as: UTF8.self)
        func element(_ name: String) -> String? { Self.texts(name, in: document).first }
        let code = element("Code") ?? "HTTP \(status)"
        let hint: String? = switch code {
        case "InvalidAccessKeyId", "SignatureDoesNotMatch":
            "check the key pair in \(keyVariables.access) and \(keyVariables.secret), and `region:`"
        case "AccessDenied":
            "the key may not do this: allow s3:PutObject and s3:DeleteObject on arn:aws:s3:::\(bucket.bucket)/\(bucket.prefix)*, "
                + "and s3:ListBucket on arn:aws:s3:::\(bucket.bucket) (a deploy lists it to repair its ledger)"
        case "NoSuchBucket":
            "create the bucket, or check its name and `endpoint:`"
        case "AuthorizationHeaderMalformed", "PermanentRedirect":
            "the bucket is in another region: set `region:` to it"
        case "QuotaExceeded", "EntityTooLarge":
            "the bucket is full or the file too large for the service"
        default: nil
        }
        // The message is the service's words only, never the request (it carries the signature).
        let words = element("Message").map { ": \($0)" } ?? ""
        throw DeployFailure(message: "\(what): \(code)\(words)", hint: hint, transient: RetryPolicy.isRetryable(status: status))
    }

    func upload(_ data: Data, to path: String) throws {
        prepare(path, method: "PUT")
        try check(session.perform(upload: data, headers: [
            "Content-Type: \(MediaType.of(path))",
            "x-amz-content-sha256: \(PayloadHash.sha256(data))",
        ]), what: "cannot upload \(path)")
    }

    func remove(_ path: String) throws {
        prepare(path, method: "DELETE")
        // S3 answers 204 for a missing key too; some compatible services answer 404.
        try check(session.perform(headers: ["x-amz-content-sha256: \(PayloadHash.sha256(Data()))"]),
                  what: "cannot remove \(path)", allowing: [404])
    }

    /// A PUT that did not finish stored nothing.
    func discardLeftovers(of path: String) {}

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// ListObjectsV2, a page of up to 1,000 keys at a time, the prefix's kept; the keys come
    /// URL-encoded (`encoding-type=url`), as XML cannot carry every byte a key may hold.
    /// The whole bucket is listed rather than `prefix=`: a `/` in a signed query value is
    /// read one way by AWS and another by S3-compatible servers (moto refuses the
    /// signature either way one of them accepts), and no value here may hold one.
    func list() throws -> [String] {
        var files: [String] = []
        var token: String?
        repeat {
            prepare(nil, method: "GET", query: (token.map { [("continuation-token", $0)] } ?? []) + [("encoding-type", "url"), ("list-type", "2")])
            try check(session.perform(headers: ["x-amz-content-sha256: \(PayloadHash.sha256(Data()))"], bodyLimit: .max),
                      what: "cannot list the bucket")
            let page = ListPage(String(decoding: session.responseBody, as: UTF8.self))
            files += page.keys.compactMap { key in key.hasPrefix(bucket.prefix) ? String(key.dropFirst(bucket.prefix.count)) : nil }
            token = page.next
        } while token != nil
        return files
    }

    /// What a ListObjectsV2 page says: its keys and the token of the next page.
    struct ListPage {
        var keys: [String] = []
        var next: String?

        init(_ document: String) {
            keys = S3Destination.texts("Key", in: document).compactMap { $0.removingPercentEncoding }
            if S3Destination.texts("IsTruncated", in: document).first == "true" {
                next = S3Destination.texts("NextContinuationToken", in: document).first
            }
        }
    }

    /// The text of each `<name>` element of an S3 answer (an error document, a listing),
    /// its entities decoded. S3's documents are flat and plain: no parser is needed.
    static func texts(_ name: String, in document: String) -> [String] {
        document.components(separatedBy: "<\(name)>").dropFirst().compactMap { part in
            part.range(of: "</\(name)>").map { unescaped(String(part[..<$0.lowerBound])) }
        }
    }

    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
