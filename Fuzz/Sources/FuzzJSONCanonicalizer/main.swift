import FuzzSupport

runFuzzer { data, size in data.map { fuzzJSONCanonicalizer($0, size) } ?? 0 }
