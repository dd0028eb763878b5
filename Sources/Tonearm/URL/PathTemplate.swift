/// A path template such as `/v1/contacts/{contactId}/addresses/{addressId}` (WireMock 3's
/// `urlPathTemplate`): literal text, variables and `**` wildcards, matched against a whole path and
/// read for the values of its parameters.
///
/// - `{name}` stands for one or more characters other than `/`, as many as the rest of the template
///   lets it take. The characters `.`, `;` and `*` are dropped from the name (`{.first}` and
///   `{;second*}` are `first` and `second`), as RFC 6570's operators are.
/// - `**` stands for any text, slashes included, as little as the rest lets it take; wildcards are
///   named `0`, `1`, … in order.
/// - Everything else, `{}` and an unclosed `{` included, is literal and compared exactly, so a trailing
///   `/` in the template must be in the path too, and the other way round. Paths are compared as sent
///   (escapes are not decoded), and a parameter's value keeps its escapes.
///
/// Reading values runs in time linear in the path's length times the number of template pieces,
/// whatever the path: there is no backtracking.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Piece: Sendable, Hashable {
        /// Text the path must contain here, exactly.
        case literal(String)
        /// A named parameter: one or more characters other than `/`.
        case variable(String)
        /// Any text, `/` included; the number is its name (`0` for the first wildcard).
        case wildcard(Int)
    }

    /// The template as written.
    public let text: String
    /// Its pieces, in order; literal pieces are never empty.
    public let pieces: [Piece]

    /// Reads `text`; any text is a template (one without `{name}` or `**` matches itself only).
    public init(_ text: String) {
        self.text = text
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var wildcards = 0
        let bytes = Array(text.utf8)
        var index = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{"), let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "}")), close > index + 1 {
                flush()
                let name = bytes[(index + 1)..<close].filter { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "*") }
                pieces.append(.variable(String(decoding: name, as: UTF8.self)))
                index = close + 1
            } else if byte == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                flush()
                pieces.append(.wildcard(wildcards))
                wildcards += 1
                index += 2
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flush()
        self.pieces = pieces
    }

    /// The names of the template's parameters, in order: variables by name, wildcards by number.
    public var parameterNames: [String] {
        pieces.compactMap { piece in
            switch piece {
            case .literal: nil
            case .variable(let name): name
            case .wildcard(let number): String(number)
            }
        }
    }

    /// The template as written.
    public var description: String { text }

    /// Whether `path` (without query) matches the whole template.
    public func matches(_ path: String) -> Bool {
        parameters(in: path) != nil
    }

    /// The value of each parameter in `path` (without query), in template order (a name given twice
    /// appears twice), or `nil` when the path does not match the template. Where several readings
    /// match, a variable takes as much as it can and a wildcard as little, earlier pieces first.
    public func parameters(in path: String) -> [(name: String, value: String)]? {
        let bytes = Array(path.utf8)
        let count = bytes.count
        // segmentEnd[p]: the first `/` at or after p (or the end).
        var segmentEnd = [Int](repeating: count, count: count + 1)
        var position = count - 1
        while position >= 0 {
            segmentEnd[position] = bytes[position] == UInt8(ascii: "/") ? position : segmentEnd[position + 1]
            position -= 1
        }
        // feasible[i][p]: pieces i... match bytes p... exactly. Filled from the last piece back.
        var feasible = [[Bool]](repeating: [], count: pieces.count + 1)
        feasible[pieces.count] = (0...count).map { $0 == count }
        for pieceIndex in pieces.indices.reversed() {
            let next = feasible[pieceIndex + 1]
            // nearest[p]: the smallest e >= p with next[e], or count + 1 when none.
            var nearest = [Int](repeating: count + 1, count: count + 2)
            var scan = count
            while scan >= 0 {
                nearest[scan] = next[scan] ? scan : nearest[scan + 1]
                scan -= 1
            }
            var row = [Bool](repeating: false, count: count + 1)
            switch pieces[pieceIndex] {
            case .literal(let text):
                let literal = Array(text.utf8)
                for start in 0...count where start + literal.count <= count && next[start + literal.count] {
                    row[start] = bytes[start..<(start + literal.count)].elementsEqual(literal)
                }
            case .variable:
                for start in 0..<count where bytes[start] != UInt8(ascii: "/") {
                    row[start] = nearest[start + 1] <= segmentEnd[start]
                }
            case .wildcard:
                for start in 0...count { row[start] = nearest[start] <= count }
            }
            feasible[pieceIndex] = row
        }
        guard feasible[0][0] else { return nil }
        var values: [(name: String, value: String)] = []
        var start = 0
        for (pieceIndex, piece) in pieces.enumerated() {
            let next = feasible[pieceIndex + 1]
            switch piece {
            case .literal(let text):
                start += text.utf8.count
            case .variable(let name):
                // The longest reading the rest accepts: the first feasible end from the segment's end back.
                var end = segmentEnd[start]
                while end > start + 1, !next[end] { end -= 1 }
                values.append((name, String(decoding: bytes[start..<end], as: UTF8.self)))
                start = end
            case .wildcard(let number):
                var end = start
                while end < count, !next[end] { end += 1 }
                values.append((String(number), String(decoding: bytes[start..<end], as: UTF8.self)))
                start = end
            }
        }
        return values
    }
}
