/// The ignored pointers of a `JSONCanonicalizer`, merged into a tree so that a scan can follow all of
/// them at once, one level per container, without building any path strings.
///
/// Member names are stored in canonical escaped UTF-8 (the form the canonicaliser has just written
/// for the key), so matching a member is a byte comparison. Tokens that look like array indices also
/// carry the index, since RFC 6901 lets `/0` name either member `"0"` or element 0.
///
/// The tree is flattened after it is built (children of a node contiguous, all names in one byte
/// array) so that matching during a scan touches no reference-counted storage.
struct IgnoreTrie: Sendable {
    struct Node: Sendable {
        var firstChild: Int32 = 0
        var childCount: Int32 = 0
        var wildcard: Int32 = -1
        var isIgnored = false
    }

    struct Child: Sendable {
        var nameStart: Int32
        var nameCount: Int32
        /// The array index the token denotes, or -1.
        var index: Int
        var node: Int32
    }

    private(set) var nodes: [Node] = []
    private(set) var children: [Child] = []
    private(set) var names: [UInt8] = []

    /// Whether the pointer `""` (the whole document) was given.
    var ignoresRoot: Bool { nodes.first?.isIgnored ?? false }

    /// A node of the tree while it is being built.
    private final class Builder {
        var named: [(name: [UInt8], index: Int, node: Builder)] = []
        var wildcard: Builder?
        var isIgnored = false
    }

    init(_ pointers: [JSONPointer]) {
        let root = Builder()
        for pointer in pointers {
            var current = root
            for token in pointer.tokens {
                if token.utf8.count == 1 && token.utf8.first == UInt8(ascii: "*") {
                    let next = current.wildcard ?? Builder()
                    current.wildcard = next
                    current = next
                    continue
                }
                var name: [UInt8] = []
                CanonicalString.appendEscaped(token, to: &name)
                if let existing = current.named.first(where: { $0.name == name }) {
                    current = existing.node
                } else {
                    let next = Builder()
                    current.named.append((name, Self.arrayIndex(token) ?? -1, next))
                    current = next
                }
            }
            current.isIgnored = true
        }
        // Breadth-first numbering keeps each node's children contiguous.
        var queue = [root]
        var head = 0
        var numbers: [ObjectIdentifier: Int32] = [ObjectIdentifier(root): 0]
        while head < queue.count {
            let builder = queue[head]
            head += 1
            for child in builder.named.map(\.node) + (builder.wildcard.map { [$0] } ?? []) {
                numbers[ObjectIdentifier(child)] = Int32(queue.count)
                queue.append(child)
            }
        }
        for builder in queue {
            var node = Node(isIgnored: builder.isIgnored)
            node.firstChild = Int32(children.count)
            node.childCount = Int32(builder.named.count)
            for entry in builder.named {
                children.append(Child(
                    nameStart: Int32(names.count), nameCount: Int32(entry.name.count), index: entry.index,
                    node: numbers[ObjectIdentifier(entry.node)] ?? 0))
                names.append(contentsOf: entry.name)
            }
            if let wildcard = builder.wildcard {
                node.wildcard = numbers[ObjectIdentifier(wildcard)] ?? -1
            }
            nodes.append(node)
        }
    }

    /// The RFC 6901 array index a token denotes: `0` or digits without a leading zero.
    private static func arrayIndex(_ token: String) -> Int? {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            bytes.count == 1 || bytes[0] != UInt8(ascii: "0")
        else { return nil }
        return Int(token)
    }

    /// Appends to `active` the nodes reached from `active[parents]` through the member whose
    /// canonical name bytes are `name`; returns whether one of them is ignored.
    func descend(
        from parents: Range<Int>, intoMember name: UnsafeBufferPointer<UInt8>, active: inout [Int32]
    ) -> Bool {
        nodes.withUnsafeBufferPointer { nodes in
            children.withUnsafeBufferPointer { children in
                names.withUnsafeBufferPointer { names in
                    var ignored = false
                    for position in parents {
                        let node = nodes[Int(active[position])]
                        for childIndex in Int(node.firstChild)..<Int(node.firstChild + node.childCount) {
                            let child = children[childIndex]
                            guard Int(child.nameCount) == name.count,
                                name.count == 0
                                    || Self.bytesEqual(names.baseAddress, Int(child.nameStart), name)
                            else { continue }
                            ignored = ignored || nodes[Int(child.node)].isIgnored
                            active.append(child.node)
                        }
                        if node.wildcard >= 0 {
                            ignored = ignored || nodes[Int(node.wildcard)].isIgnored
                            active.append(node.wildcard)
                        }
                    }
                    return ignored
                }
            }
        }
    }

    @inline(__always)
    private static func bytesEqual(
        _ names: UnsafePointer<UInt8>?, _ start: Int, _ name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let names, let other = name.baseAddress else { return false }
        for offset in 0..<name.count where names[start + offset] != other[offset] {
            return false
        }
        return true
    }

    /// Appends to `active` the nodes reached from `active[parents]` through array element `index`;
    /// returns whether one of them is ignored.
    func descend(from parents: Range<Int>, intoElement index: Int, active: inout [Int32]) -> Bool {
        nodes.withUnsafeBufferPointer { nodes in
            children.withUnsafeBufferPointer { children in
                var ignored = false
                for position in parents {
                    let node = nodes[Int(active[position])]
                    for childIndex in Int(node.firstChild)..<Int(node.firstChild + node.childCount)
                    where children[childIndex].index == index {
                        let child = children[childIndex]
                        ignored = ignored || nodes[Int(child.node)].isIgnored
                        active.append(child.node)
                    }
                    if node.wildcard >= 0 {
                        ignored = ignored || nodes[Int(node.wildcard)].isIgnored
                        active.append(node.wildcard)
                    }
                }
                return ignored
            }
        }
    }
}
