import NIOPosix

/// A value the connection's event-loop thread either has at once or must wait for.
///
/// Most requests a replay server sees are answered from memory: those are answered on the thread that
/// read them, with no task started and no thread hop. Only what must wait (a replayed delay, the
/// network, a control call) becomes a task.
package enum Staged<Value: Sendable>: Sendable {
    /// Ready now.
    case now(Value)
    /// Needs waiting: run it in a task.
    case later(@Sendable () async -> Value)

    /// The value, waiting when it must.
    package var value: Value {
        get async {
            switch self {
            case .now(let value): value
            case .later(let work): await work()
            }
        }
    }

    /// Work that may take long on the CPU or wait on files (loading a cassette, compiling wide
    /// patterns, a match off its tables), done on NIO's thread pool: on the connection's event loop it
    /// would hold up every other connection of that loop, and of any other server sharing the loops.
    package static func onThreadPool(_ work: @escaping @Sendable () -> Value) -> Staged<Value> {
        .later {
            // runIfActive only fails once the pool is shut down: then the work is done here.
            (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
        }
    }

    /// The same stage, with `transform` applied to its value once there is one.
    package func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> Staged<Other> {
        switch self {
        case .now(let value): .now(transform(value))
        case .later(let work): .later { transform(await work()) }
        }
    }
}
