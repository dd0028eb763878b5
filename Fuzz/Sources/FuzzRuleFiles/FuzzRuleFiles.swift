import Tonearm
import TonearmCassettes

/// The bytes as a rule file in each syntax, then as a regular expression on its own: loading either
/// fails with an error naming the file or rule, or yields a rule set whose patterns match in linear time.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzRuleFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for syntax in [RuleFileFormat.Syntax.json, .yaml] {
        guard let imported = try? RuleFileFormat.decode(bytes, syntax: syntax, file: "fuzz") else { continue }
        _ = try? RuleSet(imported.rules)
    }
    let pattern = String(decoding: bytes, as: UTF8.self)
    guard let rules = try? RuleSet([Rule(name: "fuzz", pattern: pattern, target: .path, response: Response())]) else { return 0 }
    let engine = ReplayEngine(tracks: [], strategy: .rules(rules))
    // An accepted pattern must answer quickly even on text that would make a backtracking engine explode:
    // long runs of one of its own characters ending in one it cannot match. libFuzzer's -timeout reports
    // a pattern that does not.
    for character in Set(pattern.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic || $0 == "/" }).prefix(3) {
        _ = engine.match(Request(url: "http://fuzz.example/" + String(repeating: String(character), count: 4_096) + "%01"))
    }
    return 0
}
