import FuzzSupport

runFuzzer { data, size in data.map { fuzzImporters($0, size) } ?? 0 }
