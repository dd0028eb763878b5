/// Canonical name/value pairs of query strings and `application/x-www-form-urlencoded` bodies.
///
/// The rules, chosen so that spellings a server decodes alike compare equal:
/// - Pairs are separated by "&" only (";" is an ordinary character). Empty pieces, as in "a=1&&b=2" or a
///   trailing "&", are skipped: they carry no parameter.
/// - A piece splits at its first "=", so "a=b=c" has the value "b=c". A piece without "=" ("a") is the
///   same as "a=": most servers read both as an empty value, while an absent name stays different.
/// - In names and values "+" is a space (the form convention, which servers apply to queries too), so
///   "+" and "%20" are equal; a literal plus must be sent as "%2B", which stays distinct. Then escapes are
///   decoded, with a "%" that starts no valid escape kept as a literal "%", and the bytes are re-encoded
///   canonically (see ``FormPair``).
/// - The canonical order sorts by name bytes, then value bytes; duplicates are kept, because "id=3&id=9"
///   asks for two ids. "No query" and "empty query" both give no pairs.
package enum FormEncoding {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Pairs of "a=1&b=2" (a query without "?", or a form body), canonical, in their original order.
    package static func pairs(_ text: some StringProtocol) -> [FormPair] {
        URLBytes.withBytes(text) { collect($0, ignoring: [], sorted: false) }
    }

    /// Pairs of "a=1&b=2" given as UTF-8 bytes, canonical, in their original order.
    package static func pairs(_ bytes: UnsafeRawBufferPointer) -> [FormPair] {
        collect(URLBytes.typed(bytes), ignoring: [], sorted: false)
    }

    /// Sorted canonical pairs without those whose name is in `ignoring`, for comparing two queries or bodies
    /// whatever their parameter order and spelling.
    ///
    /// The names in `ignoring` are canonicalised too, so "cache buster", "cache+buster" and
    /// "cache%20buster" all remove the parameter sent as "cache%20buster".
    package static func canonicalPairs(_ bytes: UnsafeRawBufferPointer, ignoring: Set<String>) -> [FormPair] {
        collect(URLBytes.typed(bytes), ignoring: ignoring, sorted: true)
    }

    /// Appends "a=1&b=2" for `pairs` to `output` (no leading "?"). Every pair is written with "=", since
    /// "a" and "a=" are the same pair; reading the output back gives `pairs` again.
    package static func serialize(_ pairs: [FormPair], appendingTo output: inout [UInt8]) {
        guard !pairs.isEmpty else { return }
        pairs.withUnsafeBufferPointer { pairs in
            var total = pairs.count &* 2 &- 1
            for index in pairs.indices { total &+= pairs[index].nameText.count &+ pairs[index].valueText.count }
            // One append of the whole text: appending piece by piece costs a uniqueness and capacity check
            // on `output` for every piece. The slack lets inline texts be stored as two whole words.
            withUnsafeTemporaryAllocation(byteCount: total &+ PairText.inlineCapacity, alignment: 8) { buffer in
                guard let base = buffer.baseAddress else { return }
                var end = 0
                for index in pairs.indices {
                    if index > 0 {
                        base.storeBytes(of: UInt8(ascii: "&"), toByteOffset: end, as: UInt8.self)
                        end &+= 1
                    }
                    let pair = pairs[index]
                    pair.nameText.write(to: base + end)
                    end &+= pair.nameText.count
                    base.storeBytes(of: UInt8(ascii: "="), toByteOffset: end, as: UInt8.self)
                    end &+= 1
                    pair.valueText.write(to: base + end)
                    end &+= pair.valueText.count
                }
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            }
        }
    }

    /// Canonical form of one parameter name as a user configures it ("cache buster" → "cache%20buster"),
    /// with the same rules as names in a query, so it can be compared with ``FormPair/name``.
    /// Values follow the same rules, so this serves for a configured value too.
    package static func canonicalName(_ name: String) -> String {
        URLBytes.withBytes(name) { PercentEncoding.canonicalFormComponent($0) }
    }

    // MARK: Key building

    /// Appends the serialised canonical pairs of `bytes` to `output`, exactly as
    /// `serialize(canonicalPairs(bytes, ignoring:), appendingTo:)` would, but without making the pairs:
    /// for request keys on the hot path, where the array and its deallocation would cost more than the
    /// canonicalisation itself.
    static func appendCanonical(_ bytes: UnsafeRawBufferPointer, ignoring: Set<String>, to output: inout [UInt8]) {
        withCanonical(bytes, ignoring: ignoring) { length, write in
            guard length > 0 else { return }
            // One append of the whole text: appending piece by piece costs a uniqueness and capacity check
            // on `output` for every piece.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
                guard let base = buffer.baseAddress else { return }
                write(base)
                output.append(contentsOf: UnsafeBufferPointer(buffer))
            }
        }
    }

    /// Runs `body` with the byte length of the canonical serialisation of `bytes` (what
    /// ``appendCanonical(_:ignoring:to:)`` appends) and a function that writes it at a pointer with room
    /// for that many bytes. The key writer needs the length before the value, to write the length prefix
    /// of a canonical line and then the value straight into place.
    @inline(__always)
    static func withCanonical<R>(
        _ bytes: UnsafeRawBufferPointer, ignoring: Set<String>,
        _ body: (_ length: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Void) -> R
    ) -> R {
        FormCanonicalizer.canonicalize(URLBytes.typed(bytes), ignoring: ignoring, sorted: true) { canonical in
            let count = canonical.count
            var total = count > 0 ? count &* 2 &- 1 : 0
            for position in 0..<count {
                let piece = canonical[position]
                total &+= piece.nameCount &+ piece.valueCount
            }
            return body(total) { base in
                var end = 0
                for position in 0..<count {
                    if position > 0 {
                        base[end] = UInt8(ascii: "&")
                        end &+= 1
                    }
                    let piece = canonical[position]
                    URLBytes.copyBytes(from: piece.name, to: base + end, count: piece.nameCount)
                    end &+= piece.nameCount
                    base[end] = UInt8(ascii: "=")
                    end &+= 1
                    URLBytes.copyBytes(from: piece.value, to: base + end, count: piece.valueCount)
                    end &+= piece.valueCount
                }
            }
        }
    }

    // MARK: Internals

    /// Canonical pairs of `bytes`, made once in final order: short texts inline, and only when some text
    /// is longer than 16 bytes one heap buffer that all long texts share.
    static func collect(_ bytes: Bytes, ignoring: Set<String>, sorted: Bool) -> [FormPair] {
        if bytes.isEmpty { return [] }
        return FormCanonicalizer.canonicalize(bytes, ignoring: ignoring, sorted: sorted) { canonical in
            let count = canonical.count
            if count == 0 { return [] }
            var longTotal = 0
            for position in 0..<count {
                let piece = canonical[position]
                if piece.nameCount > PairText.inlineCapacity { longTotal &+= piece.nameCount }
                if piece.valueCount > PairText.inlineCapacity { longTotal &+= piece.valueCount }
            }
            let storage = longTotal == 0 ? nil : ByteStorage.make(capacity: longTotal) { buffer in
                var end = 0
                for position in 0..<count {
                    let piece = canonical[position]
                    if piece.nameCount > PairText.inlineCapacity { end = URLBytes.copy(piece.nameBytes, into: buffer, at: end) }
                    if piece.valueCount > PairText.inlineCapacity { end = URLBytes.copy(piece.valueBytes, into: buffer, at: end) }
                }
                return end
            }
            var offset = 0
            @inline(__always)
            func text(_ bytes: UnsafeBufferPointer<UInt8>) -> PairText {
                guard let storage, bytes.count > PairText.inlineCapacity else { return PairText(bytes) }
                defer { offset &+= bytes.count }
                return PairText(storage: storage, offset: offset, count: bytes.count)
            }
            var result: [FormPair] = []
            result.reserveCapacity(count)
            for position in 0..<count {
                let piece = canonical[position]
                let name = text(piece.nameBytes)
                result.append(FormPair(nameText: name, valueText: text(piece.valueBytes)))
            }
            return result
        }
    }
}
