import Synchronization

/// A grow-only array written by one writer at a time and read by any number of threads without locks:
/// tracks and compiled rules.
///
/// Each element is written once, before ``append(_:)`` publishes the new count with a releasing
/// store; a reader that loads the count with acquiring order (or reaches an index through a link
/// published after the element, e.g. a key's member list) sees the element fully written. Elements are
/// never mutated or moved afterwards: chunks double in size and never reallocate.
///
/// `@unchecked Sendable` is safe because `append` is only called by the owner's single writer (its
/// callers hold the owner's `Mutex`), an element's memory is written only before its index is
/// published, the directory entry of a chunk is written before any element in it is published, and
/// everything is freed only in `deinit`.
final class GrowOnlyArray<Element: Sendable>: @unchecked Sendable {
    /// Elements known when the array was made, held with no room to spare (a bulk-built engine pays
    /// nothing for growth it may never do); appended elements follow in chunks.
    private let base: UnsafeMutablePointer<Element>
    private let baseCount: Int
    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>
    private let published = Atomic<Int>(0)

    init(_ base: [Element] = []) {
        self.base = .allocate(capacity: max(base.count, 1))
        self.base.initialize(from: base, count: base.count)
        baseCount = base.count
        directory = .allocate(capacity: ChunkLayout.chunkCount)
        directory.initialize(repeating: nil, count: ChunkLayout.chunkCount)
        published.store(base.count, ordering: .releasing)
    }

    deinit {
        var remaining = published.load(ordering: .acquiring) - baseCount
        for chunk in 0..<ChunkLayout.chunkCount {
            guard let elements = directory[chunk] else { break }
            let size = ChunkLayout.size(of: chunk)
            elements.deinitialize(count: min(remaining, size))
            remaining -= min(remaining, size)
            elements.deallocate()
        }
        directory.deallocate()
        base.deinitialize(count: baseCount)
        base.deallocate()
    }

    /// The number of published elements.
    @inline(__always)
    var count: Int { published.load(ordering: .acquiring) }

    /// Element `index`, which must be published. Addressed in place, so reading one property of an
    /// element copies only that property.
    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            if index < baseCount { return UnsafePointer(base + index) }
            let (chunk, offset) = ChunkLayout.locate(index - baseCount)
            return UnsafePointer(directory[chunk].unsafelyUnwrapped + offset)
        }
    }

    /// Appends `element` and publishes it; returns its index. Single writer only.
    @discardableResult
    func append(_ element: Element) -> Int {
        let index = published.load(ordering: .relaxed)
        let (chunk, offset) = ChunkLayout.locate(index - baseCount)
        if directory[chunk] == nil { directory[chunk] = .allocate(capacity: ChunkLayout.size(of: chunk)) }
        (directory[chunk].unsafelyUnwrapped + offset).initialize(to: element)
        published.store(index + 1, ordering: .releasing)
        return index
    }

    /// Bytes held by allocated chunks (elements' own heap storage not included).
    var storageBytes: Int {
        var bytes = ChunkLayout.chunkCount * 8 + baseCount * MemoryLayout<Element>.stride
        for chunk in 0..<ChunkLayout.chunkCount where directory[chunk] != nil {
            bytes += ChunkLayout.size(of: chunk) * MemoryLayout<Element>.stride
        }
        return bytes
    }
}
