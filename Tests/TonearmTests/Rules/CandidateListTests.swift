import PropertyBased
import Testing
@testable import Tonearm

/// The candidate list visits what an array sorted and stripped of repeats would, inline or spilled.
@Suite("Rules: the candidate list")
struct CandidateListTests {
    @Test("Any number of candidates (inline, at the capacity, spilled), repeats included, are visited sorted and once each")
    func matchesASortedArray() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...40).array(of: 0...30)) { positions in
            var list = CandidateList()
            for position in positions { list.append(position) }
            var visited: [Int] = []
            list.sortedForEach(by: <) { visited.append($0); return true }
            #expect(visited == Array(Set(positions)).sorted())
            #expect(list.count == positions.count)
        }
    }

    @Test("Visiting stops when the body says so, inline and spilled")
    func stops() {
        for total in [5, 20] {
            var list = CandidateList()
            list.append(contentsOf: 0..<total)
            var visited: [Int] = []
            list.sortedForEach(by: >) { visited.append($0); return visited.count < 3 }
            #expect(visited == [total - 1, total - 2, total - 3])
        }
    }
}
