import Foundation
import PropertyBased
import Testing
import Tonearm
@testable import TonearmServer
import TonearmServerTestSupport
@testable import TonearmWireMock

/// Mappings added many at once (a root directory's, `POST /__admin/mappings/import`'s) go into the
/// engine in one batch; they must answer, list and fail exactly as the same mappings added one at a time.
@Suite("WireMock mappings added in bulk")
struct WireMockBulkAddTests {
    static let urls = ["/a", "/b", "/c"]
    /// urlPathPattern matches the whole path; the last does not compile.
    static let patterns = ["/[ab]", "/.*", "/c", "/("]
    static let priorities: [Int?] = [nil, 1, 9]

    /// A mapping: exact (`url`) or pattern, of a priority, with one of a few ids so that some repeat.
    static func mapping(exact: Bool, _ which: Int, _ priority: Int?, id: Int) -> WireMockMapping? {
        let request = exact ? #""url":"\#(urls[which % urls.count])""# : #""urlPathPattern":"\#(patterns[which])""#
        let json = #"{\#(priority.map { #""priority":\#($0),"# } ?? "")"request":{"method":"GET",\#(request)},"response":{"status":200}}"#
        return try? WireMockMapping.decode(
            Array(json.utf8), source: "property", id: "00000000-0000-0000-0000-0000000000\(10 + id)", reading: WireMockMappingReading())
    }

    /// Which mapping answers each URL, and the listing's ids.
    static func observed(_ stubs: WireMockStubs) -> [String?] {
        let answers = urls.map { url -> String? in
            switch stubs.engine.match(Request(method: "GET", url: url)) {
            case .hit(let hit): stubs.mappingID(for: hit)
            case .miss: nil
            }
        }
        return answers + stubs.all.map(\.id)
    }

    @Test("a batch answers, lists and fails as the same mappings added one at a time, ignoring duplicates or replacing them")
    func batchEqualsOneAtATime() async {
        // (exact?, which URL or pattern, which priority, which id)
        let element = zip(Gen.bool, Gen.int(in: 0...3), Gen.int(in: 0...2), Gen.int(in: 0...7))
        let input = zip(element.array(of: 0...6), element.array(of: 0...24), Gen.bool)
        await propertyCheck(count: 150, input: input) { before, batch, ignoringDuplicates in
            guard let bulk = try? WireMockStubs(rootDirectory: nil, compactionFloor: 2),
                let single = try? WireMockStubs(rootDirectory: nil, compactionFloor: 2)
            else {
                Issue.record("an empty store starts")
                return
            }
            func mappings(_ list: [(Bool, Int, Int, Int)]) -> [WireMockMapping] {
                list.compactMap { exact, which, priority, id in
                    // Exact mappings take the compiling URLs only; the last pattern fails to compile.
                    Self.mapping(exact: exact, exact ? which % Self.urls.count : which, Self.priorities[priority], id: id)
                }
            }
            for mapping in mappings(before.filter { $0.0 || $0.1 != 3 }) {
                _ = try? bulk.add(mapping)
                _ = try? single.add(mapping)
            }
            let added = mappings(batch)
            var bulkFailed = false, singleFailed = false
            do { try bulk.add(contentsOf: added, ignoringDuplicates: ignoringDuplicates) } catch { bulkFailed = true }
            do {
                for mapping in added where !(ignoringDuplicates && single.mapping(mapping.id) != nil) { try single.add(mapping) }
            } catch {
                singleFailed = true
            }
            #expect(bulkFailed == singleFailed, "\(batch)")
            #expect(Self.observed(bulk) == Self.observed(single), "before \(before), batch \(batch), ignoring \(ignoringDuplicates)")
            #expect(bulk.engine.rules.count == single.engine.rules.count)
            // Removing every mapping after that leaves both answering nothing.
            _ = try? bulk.removeAll()
            _ = try? single.removeAll()
            #expect(Self.observed(bulk) == Self.observed(single))
        }
    }

    @Test("a root directory of pattern and exact mappings loads in one batch and answers by WireMock's order")
    func rootDirectoryLoads() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-bulk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        var mappings: [String] = []
        for number in 0..<600 {
            mappings.append(#"{"request":{"method":"GET","urlPathPattern":"/v1/res\#(number)/[0-9]+/items"},"response":{"body":"rule \#(number)"}}"#)
        }
        // A wider pattern of higher priority (a lower number) answers before the narrow ones; an exact
        // mapping answers its URL; a wider pattern of default priority, newer than the narrow ones, wins
        // among equals for res7.
        mappings.append(#"{"priority":1,"request":{"method":"GET","urlPathPattern":"/v1/res3/[0-9]+/.*"},"response":{"body":"priority"}}"#)
        mappings.append(#"{"request":{"method":"GET","url":"/v1/res5/1/items"},"response":{"body":"exact"}}"#)
        mappings.append(#"{"request":{"method":"GET","urlPathPattern":"/v1/res7/.*"},"response":{"body":"newer"}}"#)
        try Data(#"{"mappings":[\#(mappings.joined(separator: ","))]}"#.utf8).write(to: root.appendingPathComponent("mappings/all.json"))
        let stubs = try WireMockStubs(rootDirectory: WireMockRootDirectory(root))
        func body(_ url: String) -> String? {
            guard case .hit(let hit) = stubs.engine.match(Request(method: "GET", url: url)) else { return nil }
            return hit.track.response.map { String(decoding: $0.body, as: UTF8.self) }
        }
        #expect(body("/v1/res0/42/items") == "rule 0")
        #expect(body("/v1/res599/42/items") == "rule 599")
        #expect(body("/v1/res3/42/items") == "priority")
        #expect(body("/v1/res5/1/items") == "exact")
        #expect(body("/v1/res5/2/items") == "rule 5")
        #expect(body("/v1/res7/2/items") == "newer")
        #expect(body("/v1/res600/2/items") == nil)
        #expect(stubs.engine.rules.count == 602)
    }
}
