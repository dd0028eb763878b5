import Synchronization

/// Every distinct ``ScenarioStep`` made in the process, each once: steps are indexes into it.
///
/// Readers look steps up without a lock (a `GrowOnlyArray`); making a step takes the `Mutex`, which also
/// makes it the array's single writer.
final class ScenarioStepTable: Sendable {
    /// A step's strings.
    struct Strings: Sendable, Hashable {
        let name: String
        let requiredState: String?
        let newState: String?
    }

    static let shared = ScenarioStepTable()

    private let strings = GrowOnlyArray<Strings>()
    /// Each step's entry; the lock serialises appends to `strings`.
    private let entries = Mutex<[Strings: UInt32]>([:])

    /// The entry of `step`, added when new. Entries are 32-bit to keep tracks small: four billion distinct
    /// steps would need hundreds of gigabytes of strings first.
    func entry(for step: Strings) -> UInt32 {
        entries.withLock { entries in
            if let entry = entries[step] { return entry }
            let entry = UInt32(truncatingIfNeeded: strings.append(step))
            entries[step] = entry
            return entry
        }
    }

    /// The strings of `entry` (one this table handed out).
    subscript(entry: UInt32) -> Strings {
        strings[Int(entry)]
    }
}
