import Foundation

/// A keyless service's block whose requests say who sends them (`met_norway:`, `nws:`):
/// read by one loader, with the same keys.
public protocol IdentifiedServiceSettings: Sendable, Equatable {
    var limits: CallLimits { get set }
    var baseURL: URL { get set }
    var contact: String? { get set }
}
