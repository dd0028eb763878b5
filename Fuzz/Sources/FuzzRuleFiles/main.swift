import FuzzSupport

runFuzzer { data, size in data.map { fuzzRuleFiles($0, size) } ?? 0 }
