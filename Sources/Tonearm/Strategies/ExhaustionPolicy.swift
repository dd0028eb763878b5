extension Strategy {
    /// What a FIFO key does once every track recorded for it has played (``Strategy/fifo(whenExhausted:)``).
    ///
    /// Policies may be added (answering with a fixed response, say), so this is a struct with static
    /// members rather than an enum: pass `.repeatLast` or `.miss` and compare with `==`.
    public struct ExhaustionPolicy: Sendable, Hashable, CustomStringConvertible {
        enum Storage: Sendable, Hashable {
            case repeatLast
            case miss
        }

        /// Internal so the queue strategy can switch over it exhaustively.
        let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// Keep answering with the last track (a FIFO queue whose tail sticks).
        public static let repeatLast = ExhaustionPolicy(.repeatLast)
        /// Miss, reporting the key as exhausted (unique-play).
        public static let miss = ExhaustionPolicy(.miss)

        /// `repeatLast` or `miss`.
        public var description: String {
            switch storage {
            case .repeatLast: "repeatLast"
            case .miss: "miss"
            }
        }
    }
}
