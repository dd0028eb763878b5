import FuzzSupport

runFuzzer { data, size in data.map { fuzzRequestKey($0, size) } ?? 0 }
