import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tonearm

extension TransportError {
    /// The `URLError` a real URLSession reports for this failure.
    public var urlError: URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: "Tonearm simulated \(self)"])
    }

    /// The matching `URLError` code.
    public var code: URLError.Code {
        switch self {
        case .timedOut: .timedOut
        case .notConnectedToInternet: .notConnectedToInternet
        case .networkConnectionLost, .connectionReset: .networkConnectionLost
        case .badServerResponse: .badServerResponse
        case .cannotParseResponse: .cannotParseResponse
        case .cannotFindHost: .cannotFindHost
        case .cannotConnectToHost: .cannotConnectToHost
        case .secureConnectionFailed: .secureConnectionFailed
        default: platformCode.map(Self.urlErrorCode) ?? .unknown
        }
    }

    /// The code for a raw value; the initialiser is failable on Linux and not on Apple platforms.
    private static func urlErrorCode(_ rawValue: Int) -> URLError.Code {
        let code: URLError.Code? = URLError.Code(rawValue: rawValue)
        return code ?? .unknown
    }
}
