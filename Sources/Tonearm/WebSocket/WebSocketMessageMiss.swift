/// A client's WebSocket message that the replayed conversation has no answer for: which message it was,
/// why it missed, and the recorded client messages nearest it with what differs, in the terms a
/// request's miss uses (``FieldDifference``: JSON members by pointer, the first differing byte).
package struct WebSocketMessageMiss: Sendable, Equatable, CustomStringConvertible {
    /// A recorded client message near the one received.
    package struct Near: Sendable, Equatable {
        /// Its index in the conversation's messages.
        package var index: Int
        package var message: WebSocketConversation.Message
        /// What differs from the received message; empty when only its place in the order does.
        package var differences: [FieldDifference]
    }

    /// Which of the client's messages on this socket it was (1 for the first).
    package var number: Int
    /// The message, its offset the time since the upgrade when it arrived.
    package var received: WebSocketConversation.Message
    /// Why it missed.
    package var reason: String
    /// The nearest recorded client messages, nearest first (the one expected next, in recorded order).
    package var nearest: [Near]
    /// How many recorded client messages were compared.
    package var candidatesCompared: Int

    /// How many distinct recorded messages keyed order compares with a miss.
    package static let maximumCompared = 1_000

    package static func == (lhs: WebSocketMessageMiss, rhs: WebSocketMessageMiss) -> Bool {
        lhs.number == rhs.number && lhs.received == rhs.received && lhs.reason == rhs.reason && lhs.nearest == rhs.nearest
    }

    /// The report, ready to print.
    package var description: String {
        var lines = ["No match for WebSocket client message \(number)", "  reason: \(reason)", "  received: \(Self.quoted(received))"]
        for (rank, near) in nearest.enumerated() {
            let count = near.differences.count
            lines.append("  \(rank + 1). recorded message \(near.index): \(Self.quoted(near.message)): \(count) difference\(count == 1 ? "" : "s")")
            lines += near.differences.prefix(12).map { "    - \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The miss as a request's miss report, for the journals and pages that show those: the request is
    /// the socket's handshake `upgrade` carrying the message as its body (JSON text as JSON), the nearest
    /// "track" is the WebSocket track (at `position`) carrying each near message the same way, with the
    /// message's differences.
    package func report(upgrade: Request, track: Track, position: Int, canonicalizer: RequestCanonicalizer) -> MissReport {
        let request = Self.carrying(received, on: upgrade)
        let canonical = canonicalizer.canonicalize(request)
        let nearMisses = nearest.map { near in
            var carrier = track
            carrier.request = Self.carrying(near.message, on: track.request)
            carrier.name = (track.name.map { "\($0), " } ?? "") + "WebSocket message \(near.index)"
            return NearMiss(position: position, track: carrier, differences: near.differences)
        }
        return MissReport(
            request: request, canonical: canonical, key: RequestKey(canonicalBytes: canonical.bytes), reason: .custom(reason),
            nearest: nearMisses, candidatesCompared: candidatesCompared)
    }

    private static func carrying(_ message: WebSocketConversation.Message, on request: Request) -> Request {
        var carrier = request
        carrier.body = message.payload
        carrier.headers.removeAll { $0.name.equalsIgnoringASCIICase("Content-Type") }
        carrier.headers.append(HeaderField(
            "Content-Type", message.kind == .binary ? "application/octet-stream" : isJSONText(message.payload) ? "application/json" : "text/plain"))
        return carrier
    }

    private static func isJSONText(_ payload: [UInt8]) -> Bool {
        do throws(JSONSyntaxError) {
            _ = try JSONValue(parsing: payload)
            return true
        } catch {
            return false
        }
    }

    private static func quoted(_ message: WebSocketConversation.Message) -> String {
        guard message.kind == .text else { return "binary, \(message.payload.count) bytes" }
        return MissReport.abbreviated(Substring(String(decoding: message.payload, as: UTF8.self).debugDescription))
    }
}
