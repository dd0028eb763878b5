/// The secret in the inspector's address (`/__tonearm/inspector/<token>/`): 128 random bits as 32
/// lowercase hex digits, made once per server. It is a path segment rather than a header or a cookie
/// because a browser's navigation and its `EventSource` send neither, and the page's relative URLs
/// then carry it to every asset, API call and the event feed without any script handling it.
struct InspectorToken: Sendable, Equatable {
    let text: String

    /// A token from the system's cryptographic random source.
    static func random() -> InspectorToken {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((word >> UInt64(shift)) & 0xF)]) }
        }
        return InspectorToken(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `given` is this token, compared in constant time.
    func accepts(_ given: Substring) -> Bool {
        ControlPlaneGuard.isSameSecret(Array(given.utf8), Array(text.utf8))
    }
}
