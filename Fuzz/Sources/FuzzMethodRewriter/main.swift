import FuzzSupport

runFuzzer { data, size in data.map { fuzzMethodRewriter($0, size) } ?? 0 }
