import Tonearm

/// Any bytes are either a syntax error or canonical JSON, and canonical JSON canonicalises to itself.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSONCanonicalizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for canonicalizer in canonicalizers {
        guard let canonical = try? canonicalizer.canonicalize(bytes) else { continue }
        guard let again = try? canonicalizer.canonicalize(canonical) else {
            fatalError("canonical output is not valid JSON: \(String(decoding: canonical, as: UTF8.self))")
        }
        if again != canonical {
            fatalError("canonical form is not a fixed point: \(String(decoding: canonical, as: UTF8.self))")
        }
    }
    return 0
}

private let canonicalizers = [
    JSONCanonicalizer(),
    JSONCanonicalizer(ignoring: [JSONPointer(tokens: ["id"]), JSONPointer(tokens: ["a", "0"])]),
]
