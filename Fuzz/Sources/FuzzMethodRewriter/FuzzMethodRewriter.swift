import NIOHTTP1
@testable import TonearmServer

/// Bytes as they arrive on a connection → `CustomMethodRewriter` → NIO's `HTTPRequestDecoder`, in one read
/// and in many, with these invariants (each failure names the one it broke):
///
/// 1. Reads change nothing: split at input-derived points, the rewriter passes on the same bytes and
///    notes the same methods as in one read, and the decoder parses the same requests.
/// 2. The output is the input with some method tokens replaced by `POST`, and nothing else, save a
///    method token at the very end held back for the next read. Each replaced token is an RFC 9110 token
///    of at most 64 characters outside `passedMethods`, noted in ``MethodRewrites`` in order.
/// 3. The rewriter replaced methods exactly where the decoder starts requests, and `restore` puts each
///    back on its own request: the input with `PUT` in place of each replaced method parses to the same
///    requests as the output but for those heads' methods, and restoring gives those heads their noted
///    methods, in order, and leaves every other head alone. When NIO parses the input itself without an
///    error (every method one it knows), the restored requests are the input's.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzMethodRewriter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = RewriterRun(input, reads: input.isEmpty ? [] : [input.count])
    let split = RewriterRun(input, reads: SplitReads(input).lengths)

    // 1.
    guard whole.output == split.output else {
        violated("split reads (\(SplitReads(input).lengths.prefix(40))) changed the output: "
            + "one read gave \(visible(whole.output[...])), split reads \(visible(split.output[...]))")
    }
    guard whole.noted == split.noted else {
        violated("split reads changed the noted methods: \(whole.noted) against \(split.noted)")
    }
    guard whole.parsed == split.parsed else {
        violated("split reads changed what NIO parsed of the same bytes: \(whole.parsed.requests.count) requests "
            + "(failed: \(whole.parsed.failed)) against \(split.parsed.requests.count) (failed: \(split.parsed.failed))")
    }

    // 2.
    var previous = -1
    for noted in whole.noted {
        let method = Array(noted.method.utf8)
        guard (1...CustomMethodRewriter.longestMethod).contains(method.count), method.allSatisfy(isTokenCharacter),
            !CustomMethodRewriter.passedMethods.contains(method), noted.request > previous
        else {
            violated("noted \(noted) after request \(previous): not a new request's method the rewriter replaces")
        }
        previous = noted.request
    }
    let alignment = RewriteAlignment(input: input, output: whole.output, methods: whole.noted.map { Array($0.method.utf8) })
    guard !alignment.replacements.isEmpty else {
        // Nothing replaced: the decoder gets the input as it is, and `restore` must change no head.
        guard whole.restored == whole.parsed.requests.map(\.head.method) else {
            violated("nothing was replaced, yet restore changed a method: \(whole.restored)")
        }
        return 0
    }

    // 3.
    let reference = ParsedStream(decoding: alignment.replacing(with: "PUT", in: input))
    guard reference.requests.count == whole.parsed.requests.count, reference.failed == whole.parsed.failed else {
        violated("with PUT for each replaced method NIO parses \(reference.requests.count) requests (failed: "
            + "\(reference.failed)), with POST \(whole.parsed.requests.count) (failed: \(whole.parsed.failed)): "
            + "a method was replaced where no request starts")
    }
    var nextReplaced = 0
    for (index, (parsed, expected)) in zip(whole.parsed.requests, reference.requests).enumerated() {
        guard parsed.matches(apartFromMethod: expected) else {
            violated("request \(index) differs beyond its method between POST and PUT for the replaced methods "
                + "(\(parsed.head.uri) against \(expected.head.uri)): a method was replaced where no request starts")
        }
        let restored = whole.restored[index]
        if parsed.head.method == expected.head.method {
            guard restored == parsed.head.method else {
                violated("request \(index), sent as \(parsed.head.method), was restored to \(restored)")
            }
            continue
        }
        guard parsed.head.method == .POST, expected.head.method == .PUT, nextReplaced < whole.noted.count else {
            violated("request \(index) parsed as \(parsed.head.method) and \(expected.head.method): not a replaced method")
        }
        let noted = whole.noted[nextReplaced]
        guard noted.request == index, restored.rawValue == noted.method else {
            violated("request \(index), sent as \(noted.method) (replaced method \(nextReplaced)), was noted as "
                + "request \(noted.request) and restored to \(restored.rawValue)")
        }
        nextReplaced += 1
    }

    let original = ParsedStream(decoding: input)
    guard !original.failed else { return 0 }
    guard original.requests.count == whole.parsed.requests.count else {
        violated("NIO parses \(original.requests.count) requests of the input, \(whole.parsed.requests.count) behind the rewriter")
    }
    for (index, (parsed, sent)) in zip(whole.parsed.requests, original.requests).enumerated() {
        let restored = whole.restored[index]
        // NIO names M-SEARCH `.MSEARCH` (raw value MSEARCH); restoring gives the name as sent.
        let sameMethod = restored == sent.head.method || (sent.head.method == .MSEARCH && restored.rawValue == "M-SEARCH")
        guard sameMethod, parsed.matches(apartFromMethod: sent) else {
            violated("request \(index) was sent as \(sent.head.method) \(sent.head.uri), and reached the server as "
                + "\(restored) \(parsed.head.uri)")
        }
    }
    return 0
}
