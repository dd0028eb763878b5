/// A strategy that uses tracks up (FIFO, unique-play, strict order) and can say which still answer:
/// what the server's inspector shows beside each track. Read without moving anything.
package protocol TrackAvailability {
    /// Whether the track at `position` can still answer a request (before a ``ReplayEngine/reset()``).
    func isPlayable(_ position: Int) -> Bool
}

extension ReplayEngine {
    /// Whether the track at `position` can still answer under the engine's strategy: `nil` when the
    /// strategy does not use tracks up (repeat, or a custom one).
    package func isPlayable(trackAt position: Int) -> Bool? {
        (strategy as? any TrackAvailability)?.isPlayable(position)
    }
}
