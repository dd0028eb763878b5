import Tonearm

/// Where each element of a cassette's list of entries sits in the file's bytes, and the file with some
/// of them taken out and every other byte as it was: how `tonearm prune` removes tracks without
/// rewriting a file in its own layout, key order and formatting.
struct ListElementSpans: Sendable {
    /// The bytes of the whole file.
    let bytes: [UInt8]
    /// Each element's byte range, in order.
    let elements: [Range<Int>]
    /// Where the list's content starts (after `[`, or at the end of the YAML key's line) and ends
    /// (before `]`, or after the last item's line).
    let content: Range<Int>
    /// What replaces the content when every element goes: nothing between `[` and `]`; ` []` and a
    /// line break after a YAML key.
    let emptyContent: [UInt8]

    /// The file without the elements at `removed`: each kept element keeps the separator (comma,
    /// white space, newline) that came before it, the first kept one the list's opening.
    func removing(_ removed: Set<Int>) -> [UInt8] {
        let kept = elements.indices.filter { !removed.contains($0) }
        var output = Array(bytes[..<content.lowerBound])
        guard let first = kept.first else {
            output += emptyContent
            output += bytes[content.upperBound...]
            return output
        }
        output += bytes[content.lowerBound..<elements[0].lowerBound]
        for index in kept {
            if index != first { output += bytes[elements[index - 1].upperBound..<elements[index].lowerBound] }
            output += bytes[elements[index]]
        }
        output += bytes[elements[elements.count - 1].upperBound..<content.upperBound]
        output += bytes[content.upperBound...]
        return output
    }

    /// The elements of the JSON array at the member path `path` (`[]`: the top-level array), or `nil`
    /// when the document has no array there.
    static func json(_ bytes: [UInt8], path: [String]) -> ListElementSpans? {
        bytes.withUnsafeBufferPointer { buffer -> ListElementSpans? in
            var reader = JSONReader(buffer, options: JSONReader.Options(skipsByteOrderMark: true))
            do throws(JSONSyntaxError) {
                for key in path {
                    guard try reader.value() == .objectStart else { return nil }
                    var found = false
                    while let name = try reader.nextKey() {
                        if name == key {
                            found = true
                            break
                        }
                        _ = try reader.skipValue()
                    }
                    guard found else { return nil }
                }
                guard try reader.value() == .arrayStart else { return nil }
                let open = reader.valueOffset
                var elements: [Range<Int>] = []
                while try reader.nextElement() { elements.append(try reader.skipValue()) }
                // The reader stands just past `]`.
                let close = closingBracket(in: buffer, after: elements.last?.upperBound ?? open + 1)
                guard let close else { return nil }
                return ListElementSpans(bytes: bytes, elements: elements, content: (open + 1)..<close, emptyContent: [])
            } catch {
                return nil
            }
        }
    }

    /// The offset of the `]` that closes an array whose last element (or `[`) ends before `start`.
    private static func closingBracket(in buffer: UnsafeBufferPointer<UInt8>, after start: Int) -> Int? {
        var offset = start
        while offset < buffer.count {
            if buffer[offset] == UInt8(ascii: "]") { return offset }
            offset += 1
        }
        return nil
    }

    /// The items of the YAML block sequence under the top-level key `key` (`interactions:` as vcrpy and
    /// Ruby VCR write it): each item runs from its `- ` line to the line before the next item at the
    /// same indentation, or before the next line indented less (the following top-level key).
    static func yaml(_ bytes: [UInt8], key: String) -> ListElementSpans? {
        var lineStarts: [Int] = [0]
        for (offset, byte) in bytes.enumerated() where byte == 0x0A && offset + 1 < bytes.count { lineStarts.append(offset + 1) }
        func line(_ index: Int) -> ArraySlice<UInt8> {
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
            return bytes[lineStarts[index]..<end]
        }
        func indentation(_ text: ArraySlice<UInt8>) -> Int { text.prefix(while: { $0 == 0x20 }).count }
        func isBlank(_ text: ArraySlice<UInt8>) -> Bool { text.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D } }
        let heading = Array((key + ":").utf8)
        guard let keyLine = lineStarts.indices.first(where: {
            let text = line($0)
            return text.starts(with: heading) && isBlank(text.dropFirst(heading.count))
        }) else { return nil }
        var index = keyLine + 1
        while index < lineStarts.count, isBlank(line(index)) { index += 1 }
        guard index < lineStarts.count else { return nil }
        let itemIndent = indentation(line(index))
        func startsItem(_ text: ArraySlice<UInt8>) -> Bool {
            indentation(text) == itemIndent && text.dropFirst(itemIndent).starts(with: [UInt8(ascii: "-"), 0x20])
                || indentation(text) == itemIndent && text.dropFirst(itemIndent).elementsEqual([UInt8(ascii: "-"), 0x0A])
        }
        guard startsItem(line(index)) else { return nil }
        // The content starts at the key line's line break, so that an emptied list can become `key: []`.
        let contentStart = lineStarts[keyLine + 1] - 1
        var elements: [Range<Int>] = []
        var itemStart = lineStarts[index]
        index += 1
        while index < lineStarts.count {
            let text = line(index)
            if startsItem(text) {
                elements.append(itemStart..<lineStarts[index])
                itemStart = lineStarts[index]
            } else if !isBlank(text), indentation(text) < itemIndent || indentation(text) == itemIndent && !text.dropFirst(itemIndent).starts(with: [UInt8(ascii: "-")]) {
                break
            }
            index += 1
        }
        let end = index < lineStarts.count ? lineStarts[index] : bytes.count
        elements.append(itemStart..<end)
        return ListElementSpans(bytes: bytes, elements: elements, content: contentStart..<end, emptyContent: Array(" []\n".utf8))
    }
}
