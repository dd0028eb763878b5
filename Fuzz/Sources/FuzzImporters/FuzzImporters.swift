import Tonearm
import TonearmCassettes

/// The same bytes go to every cassette decoder (JSON and YAML formats alike): each either loads or
/// throws a ``CassetteError``; whatever loads must also make an engine or fail with a ``RuleError``.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzImporters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let decoders: [([UInt8]) throws -> CassetteImport] = [
        { CassetteImport(cassette: try NativeFormat.decode($0, file: "fuzz.json")) },
        { try HARFormat.decode($0, file: "fuzz.har") },
        { try VCRFormat.decode($0, file: "fuzz.yaml") },
        { try DVRFormat.decode($0, file: "fuzz.json") },
        { try VinylFormat.decode($0, file: "fuzz.json") },
        { try WireMockFormat.decode($0, file: "fuzz.json") },
    ]
    for decode in decoders {
        guard let imported = try? decode(bytes) else { continue }
        _ = try? imported.makeEngine()
    }
    return 0
}
