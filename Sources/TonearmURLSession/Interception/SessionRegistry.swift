import Synchronization

/// Finds the live ``TonearmSession`` a protocol instance answers for.
///
/// Sessions register when created and leave when finished, so a finished test's session can never
/// answer another test's request. The global slot holds the session installed for code that uses
/// `URLSession.shared` (see ``TonearmSession/installGlobally()``).
enum SessionRegistry {
    private static let sessions = Mutex<[UInt64: TonearmSession]>([:])
    private static let global = Mutex<TonearmSession?>(nil)
    private static let counter = Atomic<UInt64>(0)

    /// A number no other session in this process has had.
    static func nextNumber() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }

    static func register(_ session: TonearmSession, number: UInt64) {
        sessions.withLock { $0[number] = session }
    }

    static func unregister(number: UInt64) {
        sessions.withLock { $0[number] = nil }
    }

    static func session(number: UInt64) -> TonearmSession? {
        sessions.withLock { $0[number] }
    }

    static var globalSession: TonearmSession? {
        global.withLock { $0 }
    }

    /// Installs `session` as the global one, returning the one it replaces.
    @discardableResult
    static func setGlobal(_ session: TonearmSession?) -> TonearmSession? {
        global.withLock { slot in
            let previous = slot
            slot = session
            return previous
        }
    }
}
