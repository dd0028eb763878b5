import Tonearm

/// Finds what a reviewer of the new cassette should look at (``DiffFlag``): keys recorded more often
/// than they should be, and credentials left in.
struct DiffFlagFinder {
    let options: CassetteDiffOptions
    let subjects: Subjects

    func flags(old: Cassette, new: Cassette, tracks: Pairing<RequestKey>) -> [DiffFlag] {
        repeatedKeys(old: old, new: new, tracks: tracks) + secrets(old: old, new: new, tracks: tracks)
    }

    /// Keys the new cassette records several times where that is suspicious: more often than the old
    /// cassette did (a request retried during recording leaves its failure behind, as playwright #40682
    /// describes), or at all under a strategy that plays only the first. Tracks with a scenario are
    /// stubs that answer any number of times, and tracks that all name a sequence are meant to play in
    /// turn, so neither counts.
    private func repeatedKeys(old: Cassette, new: Cassette, tracks: Pairing<RequestKey>) -> [DiffFlag] {
        let strategy = options.strategy ?? new.strategy ?? .repeat
        var flags: [DiffFlag] = []
        for (key, positions) in tracks.newPositions where positions.count > 1 {
            let counted = positions.filter { new.entries[$0].track.scenario == nil }
            guard counted.count > 1, let first = counted.first else { continue }
            let oldCount = tracks.oldPositions[key]?.count(where: { old.entries[$0].track.scenario == nil }) ?? 0
            let isSequence = counted.allSatisfy { new.entries[$0].hints.sequence != nil }
            let playsEach = strategy != .repeat || isSequence
            let grew = counted.count > oldCount
            guard grew || !playsEach else { continue }
            let answers = counted.map { Self.summary(of: new.entries[$0].track.outcome) }.joined(separator: ", then ")
            var message = "recorded \(counted.count) times (answers \(answers))"
            message += oldCount == 0 ? "" : " where the old cassette has it \(oldCount == 1 ? "once" : "\(oldCount) times")"
            if grew && oldCount > 0 { message += ": check for a request retried while recording, its failed attempt recorded too" }
            if !playsEach { message += "; under the repeat strategy only the first answers" }
            flags.append(DiffFlag(kind: .repeatedKey, subject: subjects.newTrack(first), message: message, isNew: grew))
        }
        return flags
    }

    /// Credentials the redaction names that the new cassette still carries, by `tonearm lint`'s scanner;
    /// new unless the paired old track carries the same one.
    private func secrets(old: Cassette, new: Cassette, tracks: Pairing<RequestKey>) -> [DiffFlag] {
        let scanner = SecretScanner(redaction: options.redaction)
        var flags: [DiffFlag] = []
        for (position, entry) in new.entries.enumerated() {
            let places = scanner.places(in: entry.track)
            if places.isEmpty { continue }
            let oldPlaces = tracks.oldPartners[position].map { scanner.places(in: old.entries[$0].track) } ?? []
            for place in places {
                flags.append(DiffFlag(
                    kind: .unredactedSecret, subject: subjects.newTrack(position), message: "\(place) is not redacted",
                    isNew: !oldPlaces.contains(place)))
            }
        }
        return flags
    }

    /// `503` or `transport error: timedOut`, for the list of a repeated key's answers.
    static func summary(of outcome: Track.Outcome) -> String {
        switch outcome {
        case .response(let response): "\(response.status)"
        case .transportError(let error): error.description
        }
    }
}
