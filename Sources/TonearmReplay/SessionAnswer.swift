import Tonearm

/// What ``ReplaySession/answer(to:network:)`` decided for one request.
package enum SessionAnswer: Sendable {
    /// A track, stub or rule answers; its delay is the caller's to wait out.
    case replayed(Hit)
    /// Nothing answers, and the request may not reach the network.
    case missed(MissReport)
    /// The network answered; the exchange was recorded when the mode records.
    case fetched(Response)
}

/// What ``ReplaySession/decide(_:)`` made of a request before any network exchange.
package enum SessionDecision: Sendable {
    /// The engine decided: a replay, or a miss that may not reach the network.
    case answered(SessionAnswer)
    /// The request goes to the network (``ReplaySession/fetch(_:missed:from:)``), after this miss (`nil`
    /// when the mode does not replay).
    case fetch(MissReport?)
}
