/// How replay delivers a track's paced body (``Track/pacing``): as recorded, faster or slower, or at
/// once. A UI test that shows tokens as they arrive wants them as recorded; a test that only reads the
/// whole answer wants it at once.
///
/// Written `recorded`, `off` (or `immediate`), or a factor such as `0.5` (twice as fast) or `2`
/// (half as fast) on the command line (`tonearm serve --stream-pacing`), in `TONEARM_STREAM_PACING`,
/// and in the pytest plugin.
public struct StreamPacing: Sendable, Hashable, CustomStringConvertible {
    /// What every part's offset is multiplied by; `nil` for at once.
    public let factor: Double?

    private init(factor: Double?) {
        self.factor = factor
    }

    /// Every part when it came (the default).
    public static let recorded = StreamPacing(factor: 1)
    /// The whole body at once, after the track's delay: no part waits.
    public static let immediate = StreamPacing(factor: nil)

    /// Every part's offset multiplied by `factor`: `0.5` delivers twice as fast, `2` half as fast, `0`
    /// at once. `nil` when `factor` is negative, not finite, or over 1,000.
    public static func scaled(_ factor: Double) -> StreamPacing? {
        guard factor.isFinite, factor >= 0, factor <= 1_000 else { return nil }
        return factor == 0 ? .immediate : StreamPacing(factor: factor)
    }

    /// Reads `recorded`, `off`, `immediate` or a factor (`0.5`); `nil` for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "recorded": self = .recorded
        case "off", "immediate", "none": self = .immediate
        default:
            guard let factor = Double(text), let scaled = StreamPacing.scaled(factor) else { return nil }
            self = scaled
        }
    }

    /// `pacing` as this delivers it: offsets scaled, or `nil` when the body goes at once.
    public func apply(to pacing: BodyPacing) -> BodyPacing? {
        guard let factor else { return nil }
        guard factor != 1 else { return pacing }
        return BodyPacing(parts: pacing.parts.map { BodyPacing.Part(offset: $0.offset * factor, byteCount: $0.byteCount) })
    }

    /// `recorded`, `off`, or the factor.
    public var description: String {
        switch factor {
        case nil: "off"
        case 1?: "recorded"
        case let factor?: "\(factor)"
        }
    }
}
