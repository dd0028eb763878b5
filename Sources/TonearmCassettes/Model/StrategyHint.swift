import Tonearm

/// The strategy a cassette was recorded for, by name, as stored in the native format.
///
/// Names follow the core's `Strategy` recipes, which will grow, so this is a struct with static members
/// rather than an enum: write `.repeat` or `.fifo`, compare with `==`, and read ``rawValue``.
public struct StrategyHint: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: String, Sendable, Hashable {
        case `repeat`, fifo, uniquePlay, strictOrder
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// `Strategy/repeat`.
    public static let `repeat` = StrategyHint(.repeat)
    /// `Strategy/fifo(whenExhausted:)` repeating the last track.
    public static let fifo = StrategyHint(.fifo)
    /// `Strategy/uniquePlay`.
    public static let uniquePlay = StrategyHint(.uniquePlay)
    /// `Strategy/strictOrder`.
    public static let strictOrder = StrategyHint(.strictOrder)

    /// Every hint, in the order they are listed to users.
    public static let allCases: [StrategyHint] = [.repeat, .fifo, .uniquePlay, .strictOrder]

    /// The name stored in cassettes and accepted on command lines: `repeat`, `fifo`, `uniquePlay` or
    /// `strictOrder`.
    public var rawValue: String { storage.rawValue }

    /// The hint named `rawValue` (exact case), or `nil`.
    public init?(rawValue: String) {
        guard let storage = Storage(rawValue: rawValue) else { return nil }
        self.init(storage)
    }

    /// The core strategy this names.
    public var strategy: Strategy {
        switch storage {
        case .repeat: .repeat
        case .fifo: .fifo()
        case .uniquePlay: .uniquePlay
        case .strictOrder: .strictOrder
        }
    }

    /// ``rawValue``.
    public var description: String { rawValue }
}
