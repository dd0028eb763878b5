import Foundation
import Tonearm
import TonearmCassettes

/// `tonearm bench --memory`: the memory a cassette takes once loaded for replay, as a test session
/// loads it (read and import the file, index its tracks in a ``ReplayEngine``, keep only the engine).
///
/// Figures are the process's resident memory from `/proc/self/status` (Linux): `VmRSS` before and
/// after loading, and the high-water mark `VmHWM`, each less the resident memory before loading, so
/// they are the load's own cost. issue 9's goals: after loading at most 2× the file's size, at the
/// peak at most 3×.
struct LoadMemoryReport: Encodable {
    var file: String
    var fileBytes: Int
    var tracks: Int
    /// Resident memory of the process before loading.
    var baselineBytes: Int
    /// Resident memory added by loading, with the engine alive and everything else dropped.
    var residentBytes: Int
    /// The highest resident memory while loading, less the baseline.
    var peakBytes: Int
    /// What the engine's index says its tables take beyond the track values (``TrackIndex/indexBytes``).
    var indexBytes: Int
    /// What the index's track store holds (``TrackIndex/trackStorage``): packed tracks' bytes, and the
    /// inline size of tracks kept as values (their strings and arrays come on top).
    var trackStorageBytes: Int
    /// Tracks stored packed, and as values.
    var packedTracks: Int
    var valueTracks: Int
    var seconds: Double

    var residentRatio: Double { Double(residentBytes) / Double(max(fileBytes, 1)) }
    var peakRatio: Double { Double(peakBytes) / Double(max(fileBytes, 1)) }
    var meetsGoals: Bool { residentRatio <= 2 && peakRatio <= 3 }

    /// Loads `path` and measures.
    static func measure(path: String, format: CassetteFormat?) throws -> LoadMemoryReport {
        let fileBytes = FileAccess.size(of: URL(fileURLWithPath: path))
        let before = ProcessMemory.current()
        let clock = ContinuousClock()
        let start = clock.now
        let engine = try loadEngine(path: path, format: format)
        let elapsed = clock.now - start
        let after = ProcessMemory.current()
        let report = LoadMemoryReport(
            file: path, fileBytes: fileBytes, tracks: engine.index.trackCount, baselineBytes: before.resident,
            residentBytes: after.resident - before.resident, peakBytes: after.peak - before.resident,
            indexBytes: engine.index.indexBytes, trackStorageBytes: engine.index.trackStorage.bytes,
            packedTracks: engine.index.trackStorage.packed, valueTracks: engine.index.trackStorage.values,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        withExtendedLifetime(engine) {}
        return report
    }

    /// The engine a session would replay from, loaded the way a replaying session loads it (each track
    /// indexed as it is read).
    private static func loadEngine(path: String, format: CassetteFormat?) throws -> ReplayEngine {
        let (engine, imported) = try CassetteFile.loadEngine(URL(fileURLWithPath: path), format: format)
        for rule in imported.rules { try engine.add(rule) }
        return engine
    }

    var table: String {
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return """
            \(file): \(megabytes(fileBytes)), \(tracks) tracks, loaded in \(String(format: "%.2f", seconds)) s
              resident after loading: \(megabytes(residentBytes)) (\(String(format: "%.2f", residentRatio))× the file; goal ≤ 2×)
              peak while loading:     \(megabytes(peakBytes)) (\(String(format: "%.2f", peakRatio))× the file; goal ≤ 3×)
              index tables:           \(megabytes(indexBytes)) (the index's own count, beyond the track values)
              track store:            \(megabytes(trackStorageBytes)) (\(packedTracks) packed, \(valueTracks) as values, before the values' strings and arrays)
              process before loading: \(megabytes(baselineBytes))
            """
    }

    private enum CodingKeys: String, CodingKey {
        case file, fileBytes, tracks, baselineBytes, residentBytes, peakBytes, indexBytes, trackStorageBytes, packedTracks, valueTracks, seconds, residentRatio, peakRatio, meetsGoals
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(fileBytes, forKey: .fileBytes)
        try container.encode(tracks, forKey: .tracks)
        try container.encode(baselineBytes, forKey: .baselineBytes)
        try container.encode(residentBytes, forKey: .residentBytes)
        try container.encode(peakBytes, forKey: .peakBytes)
        try container.encode(indexBytes, forKey: .indexBytes)
        try container.encode(trackStorageBytes, forKey: .trackStorageBytes)
        try container.encode(packedTracks, forKey: .packedTracks)
        try container.encode(valueTracks, forKey: .valueTracks)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(residentRatio, forKey: .residentRatio)
        try container.encode(peakRatio, forKey: .peakRatio)
        try container.encode(meetsGoals, forKey: .meetsGoals)
    }
}

/// The process's resident memory now and at its highest, from `/proc/self/status` (0 where there is
/// no such file).
enum ProcessMemory {
    static func current() -> (resident: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func kilobytes(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return (kilobytes("VmRSS") * 1024, kilobytes("VmHWM") * 1024)
    }
}
