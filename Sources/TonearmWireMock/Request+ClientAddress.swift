import Tonearm
import TonearmCassettes
import TonearmServer

extension Request {
    /// This request as WireMock's `clientIp` matcher sees it: with the client's address in the field
    /// that matcher is a condition on (`WireMockFormat.clientAddressField`), when the address is known.
    /// Only for matching: journals, templates and proxies see the request as sent.
    func withClientAddress(_ peer: ClientAddress?) -> Request {
        guard let text = peer?.text else { return self }
        var copy = self
        copy.headers.append(HeaderField(WireMockFormat.clientAddressField, text))
        return copy
    }
}
