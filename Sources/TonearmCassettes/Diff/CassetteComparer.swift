import Tonearm

/// Pairs the tracks and rules of two imports and compares each pair (``CassetteDiff``).
struct CassetteComparer {
    let options: CassetteDiffOptions

    func compare(_ old: CassetteImport, _ new: CassetteImport) -> CassetteDiff {
        let reading = ResponseReading(options: options, old: old.configuration, new: new.configuration)
        let outcomes = OutcomeComparer(reading: reading)
        let canonicalizer = RequestCanonicalizer(reading.configuration)
        let oldTracks = old.cassette.tracks, newTracks = new.cassette.tracks
        let tracks = Pairing(old: oldTracks.map { canonicalizer.key(for: $0.request) }, new: newTracks.map { canonicalizer.key(for: $0.request) })
        let rules = Pairing(old: old.rules.map(RuleConditions.init), new: new.rules.map(RuleConditions.init))
        let subjects = Subjects(old: old, new: new, tracks: tracks, rules: rules)
        var diff = CassetteDiff(configuration: reading.configuration, added: [], removed: [], changed: [], unchangedCount: 0, flags: [])

        for pair in tracks.pairs {
            let oldTrack = oldTracks[pair.old], newTrack = newTracks[pair.new]
            var change = TrackChange(subject: subjects.newTrack(pair.new), oldPosition: pair.old, newPosition: pair.new)
            outcomes.compare(oldTrack.outcome, newTrack.outcome, into: &change)
            if oldTrack.delay != newTrack.delay { change.delay = ValueChange(old: oldTrack.delay, new: newTrack.delay) }
            if oldTrack.scenario != newTrack.scenario { change.scenario = ValueChange(old: oldTrack.scenario, new: newTrack.scenario) }
            diff.record(change)
        }
        for pair in rules.pairs {
            let oldRule = old.rules[pair.old], newRule = new.rules[pair.new]
            var change = TrackChange(subject: subjects.newRule(pair.new), oldPosition: pair.old, newPosition: pair.new)
            outcomes.compare(oldRule.outcome, newRule.outcome, into: &change)
            if oldRule.delay != newRule.delay { change.delay = ValueChange(old: oldRule.delay, new: newRule.delay) }
            if oldRule.priority != newRule.priority { change.priority = ValueChange(old: oldRule.priority, new: newRule.priority) }
            diff.record(change)
        }
        diff.added = tracks.onlyNew.map { UnpairedTrack(subject: subjects.newTrack($0), position: $0, outcome: newTracks[$0].outcome) }
            + rules.onlyNew.map { UnpairedTrack(subject: subjects.newRule($0), position: $0, outcome: new.rules[$0].outcome) }
        diff.removed = tracks.onlyOld.map { UnpairedTrack(subject: subjects.oldTrack($0), position: $0, outcome: oldTracks[$0].outcome) }
            + rules.onlyOld.map { UnpairedTrack(subject: subjects.oldRule($0), position: $0, outcome: old.rules[$0].outcome) }
        diff.flags = DiffFlagFinder(options: options, subjects: subjects).flags(old: old.cassette, new: new.cassette, tracks: tracks)
        diff.sortForListing()
        return diff
    }
}

extension CassetteDiff {
    /// Counts an unchanged pair, or keeps a changed one.
    fileprivate mutating func record(_ change: TrackChange) {
        if change.isEmpty { unchangedCount += 1 } else { changed.append(change) }
    }

    /// Puts every list in listing order (``DiffSubject``'s), positions breaking ties between rules with
    /// one pattern, so a diff does not depend on either file's order.
    fileprivate mutating func sortForListing() {
        func before(_ lhs: DiffSubject, _ lhsPosition: Int, _ rhs: DiffSubject, _ rhsPosition: Int) -> Bool {
            if DiffSubject.listedBefore(lhs, rhs) { return true }
            if DiffSubject.listedBefore(rhs, lhs) { return false }
            return lhsPosition < rhsPosition
        }
        added.sort { before($0.subject, $0.position, $1.subject, $1.position) }
        removed.sort { before($0.subject, $0.position, $1.subject, $1.position) }
        changed.sort { before($0.subject, $0.newPosition, $1.subject, $1.newPosition) }
        flags.sort { lhs, rhs in
            if lhs.subject != rhs.subject { return before(lhs.subject, 0, rhs.subject, 0) }
            if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
            return lhs.message.utf8.lexicographicallyPrecedes(rhs.message.utf8)
        }
    }
}

/// Names the tracks and rules of both files as ``DiffSubject``s.
struct Subjects {
    let old: CassetteImport, new: CassetteImport
    let tracks: Pairing<RequestKey>, rules: Pairing<RuleConditions>

    func newTrack(_ position: Int) -> DiffSubject {
        Self.track(new.cassette.entries[position].track, key: tracks.newKeys[position], occurrence: tracks.newOccurrences[position])
    }

    func oldTrack(_ position: Int) -> DiffSubject {
        Self.track(old.cassette.entries[position].track, key: tracks.oldKeys[position], occurrence: tracks.oldOccurrences[position])
    }

    func newRule(_ position: Int) -> DiffSubject { Self.rule(new.rules[position], occurrence: rules.newOccurrences[position]) }

    func oldRule(_ position: Int) -> DiffSubject { Self.rule(old.rules[position], occurrence: rules.oldOccurrences[position]) }

    static func track(_ track: Track, key: RequestKey, occurrence: Int) -> DiffSubject {
        DiffSubject(kind: .track, method: track.request.method, target: track.request.url, key: key, occurrence: occurrence, name: track.name)
    }

    static func rule(_ rule: Rule, occurrence: Int) -> DiffSubject {
        DiffSubject(kind: .rule, method: rule.method, target: rule.pattern, key: nil, occurrence: occurrence, name: rule.name.isEmpty ? nil : rule.name)
    }
}
