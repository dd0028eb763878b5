// A test target that imports TonearmTesting uses the types its traits and helpers take and return —
// `TonearmSession` (TonearmURLSession), `CassetteOptions`, `Stub`, `RecordMode` (TonearmReplay, which
// TonearmURLSession re-exports), `Redaction`, `CassetteFile` (TonearmCassettes), `Strategy`,
// `MatchAttribute` (Tonearm) — so `import TonearmTesting` brings them all.
@_exported import Tonearm
@_exported import TonearmCassettes
@_exported import TonearmURLSession
