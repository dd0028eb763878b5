/// Compiled automata by what they compute, so that patterns compiling to the same program share its
/// table and bit-parallel steps instead of each building its own.
///
/// Once a pattern's literal prefix is compared as bytes (``LinearPattern/prefix``), what is left of the
/// patterns of a rule set is often the same few programs: `^https://api\.example\.com/v1/res<i>/[0-9]+/items$`
/// for every `i`, or WireMock's `urlPathPattern`s `/v1/users/[0-9]+`, `/v1/orders/[0-9]+`, leave
/// `[0-9]+/items$` and `[0-9]+)$`. A cache lives with a rule store (``LiveRules``, under its writer's
/// lock) and with nothing else: it holds what its rules hold, shared (arrays are copied by reference).
struct PatternCache {
    /// What decides every answer: the instructions and flags, the input classes, and the context
    /// the program starts in (``LinearPattern/startPrevious``).
    struct Key: Hashable {
        var automaton: PatternAutomaton
        var startPrevious: PatternAutomaton.Previous
    }

    struct Compiled {
        var automaton: PatternAutomaton
        var dfa: PatternDFA
        var bitParallel: BitParallelAutomaton?
    }

    private var compiled: [Key: Compiled] = [:]

    /// The table and steps of `automaton` started after `startPrevious`: those of an equal automaton
    /// compiled before (and that automaton, whose arrays are then shared), or built now and kept.
    mutating func compile(_ automaton: PatternAutomaton, startPrevious: PatternAutomaton.Previous) -> Compiled {
        let key = Key(automaton: automaton, startPrevious: startPrevious)
        if let known = compiled[key] { return known }
        let dfa = PatternDFA(automaton, startPrevious: startPrevious)
        let result = Compiled(automaton: automaton, dfa: dfa, bitParallel: dfa.isComplete ? nil : BitParallelAutomaton(automaton))
        compiled[key] = result
        return result
    }
}
