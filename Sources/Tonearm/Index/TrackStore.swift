/// The tracks of a ``TrackIndex``, held compactly and read without locks while one writer appends.
///
/// A small track is stored packed (``PackedTrack``) in an arena of 64 KiB chunks and decoded when it is
/// read; any other track is stored as a `Track` value. Why both: as a value a tiny track (a GET of a
/// 24-byte URL answered by an empty 200) costs its 120-byte inline value plus a heap string, about 200
/// bytes, against 34 packed, and that per-track cost, not the bytes in the file, is what a cassette of a
/// million such tracks is made of; decoding a packed track allocates only its strings and arrays, which
/// ``packedLimit`` keeps few and small. A large track stays a value, so a hit on it copies references,
/// never a body, and costs what it did before packing existed.
///
/// A track is packed only when its packed form decodes back to an equal track, so a field the codec
/// does not know (added to `Track` later) makes its tracks values, never silently lost.
///
/// `@unchecked Sendable` is safe because `used`, `scratch` and `packedCount` are touched only by ``append(_:)``, whose
/// callers are the index's single writer (under its `Mutex`, or while building an index nobody else
/// holds); a packed record's bytes are written before its ``Location`` is returned, and the caller
/// publishes the location with a releasing store (`GrowOnlyArray.append`) that readers acquire; chunks
/// never move and are freed only in `deinit`.
final class TrackStore: @unchecked Sendable {
    /// Where one track is stored.
    struct Location: Sendable {
        /// The arena chunk holding the packed track, or ``TrackStore/valueChunk`` for a track stored as
        /// a value.
        let chunk: UInt32
        /// The packed track's byte offset in its chunk, or the value's index.
        let offset: UInt32
    }

    /// The largest packed form stored packed: a few short strings and a body of a few hundred bytes,
    /// decoded with a handful of small allocations. 512 rather than 256 packs the typical small JSON
    /// API response too (a 300-byte body, one header: about 370 bytes, against about 730 as a value):
    /// 100,000 of them take 47 MB instead of 82, for about 2,100 more instructions per hit on one,
    /// which a server request does not show. Larger tracks decode at a cost growing with their headers
    /// and body (11,600 against 6,500 instructions for a 760-byte one) and stay values. Numbers and
    /// commands: docs/benchmarks-history.md, "The server's memory after loading".
    static let packedLimit = 512
    private static let chunkSize = 1 << 16
    private static let valueChunk = UInt32.max

    /// Arena chunk addresses, in order; the last one is being filled.
    private let chunks = GrowOnlyArray<UInt>()
    private let values = GrowOnlyArray<Track>()
    /// Bytes used in the last chunk; a full chunk's worth before the first, so the first record
    /// allocates one.
    private var used = TrackStore.chunkSize
    /// Reused for every track's packed form.
    private var scratch: [UInt8] = []

    init() {}

    deinit {
        for chunk in 0..<chunks.count { UnsafeMutableRawPointer(bitPattern: chunks[chunk])?.deallocate() }
    }

    /// Stores `track`; the caller publishes the location. Single writer only.
    func append(_ track: Track) -> Location {
        scratch.removeAll(keepingCapacity: true)
        if PackedTrack.encode(track, into: &scratch), scratch.count <= Self.packedLimit, decodesBack(to: track) {
            return pack()
        }
        return Location(chunk: Self.valueChunk, offset: UInt32(truncatingIfNeeded: values.append(track)))
    }

    /// The track stored at `location` (a location this store returned); a packed track answering
    /// `request` shares the request's strings where they are equal (see ``PackedTrack/decode(_:answering:)``).
    @inline(__always)
    func track(at location: Location, answering request: Request? = nil) -> Track {
        if location.chunk == Self.valueChunk { return values[Int(location.offset)] }
        let chunk = UnsafePointer<UInt8>(bitPattern: chunks[Int(location.chunk)]).unsafelyUnwrapped
        return PackedTrack.decode(chunk + Int(location.offset), answering: request)
    }

    /// Whether `scratch` (non-empty: it starts with the flags byte) decodes to `track`.
    private func decodesBack(to track: Track) -> Bool {
        scratch.withUnsafeBufferPointer { PackedTrack.decode($0.baseAddress.unsafelyUnwrapped) == track }
    }

    /// Copies `scratch` into the arena, starting a chunk when the last one has no room.
    private func pack() -> Location {
        if used + scratch.count > Self.chunkSize {
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
            chunks.append(UInt(bitPattern: chunk))
            used = 0
        }
        let chunk = chunks.count - 1
        let start = UnsafeMutableRawPointer(bitPattern: chunks[chunk]).unsafelyUnwrapped + used
        scratch.withUnsafeBytes { start.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: $0.count) }
        defer {
            used += scratch.count
            packedCount += 1
        }
        return Location(chunk: UInt32(truncatingIfNeeded: chunk), offset: UInt32(truncatingIfNeeded: used))
    }

    /// Tracks stored packed. Writer only.
    private(set) var packedCount = 0

    /// Tracks stored as values.
    var valueCount: Int { values.count }

    /// Bytes held: arena chunks, the chunk list, and the value array's own storage (values' heap parts
    /// not included). Writer only.
    var storageBytes: Int {
        chunks.count * Self.chunkSize + chunks.storageBytes + values.storageBytes
    }
}
