/// One name/value pair of a query string or form body, in canonical percent-encoded form.
///
/// Canonical form keeps every unreserved byte (`A-Z a-z 0-9 - . _ ~`) literal and writes every other
/// byte as an uppercase `%XX` escape, so spellings that servers decode alike ("a%3Db" and "a=b" as a
/// value, "%7e" and "~", "café" and "caf%C3%A9", "+" and "%20") compare equal as plain strings. The
/// canonical text is pure ASCII and contains no "&", "=" or "+", so a serialised list of pairs is
/// unambiguous. ``FormEncoding`` makes these; use ``decodedName`` and ``decodedValue`` to show them.
///
/// Ordering, equality and hashing all use UTF-8 bytes: `String`'s own `<` and `==` follow Unicode rules,
/// which would make the canonical order differ from the byte order of hashed keys for hand-made pairs.
///
/// Names and values of up to 16 bytes are stored inline rather than as Strings, so that canonicalising
/// a typical query allocates nothing per pair; ``name`` and ``value`` make their Strings on each access.
package struct FormPair: Sendable, Hashable, Comparable, CustomStringConvertible {
    var nameText: PairText
    var valueText: PairText

    init(nameText: PairText, valueText: PairText) {
        self.nameText = nameText
        self.valueText = valueText
    }

    /// Makes a pair from text that is already canonical, as ``FormEncoding`` produces it. Nothing is
    /// re-encoded, so a pair can also be built from exact text; use ``FormEncoding/canonicalName(_:)``
    /// first on text of unknown form.
    package init(name: String, value: String) {
        nameText = PairText(name)
        valueText = PairText(value)
    }

    /// The canonical percent-encoded name.
    package var name: String {
        get { nameText.string }
        set { nameText = PairText(newValue) }
    }

    /// The canonical percent-encoded value; empty both for "a=" and for a bare "a".
    package var value: String {
        get { valueText.string }
        set { valueText = PairText(newValue) }
    }

    /// The name with escapes decoded, for human-readable reports; not for comparison.
    package var decodedName: String { nameText.withBytes { PercentEncoding.decoded($0) } }

    /// The value with escapes decoded, for human-readable reports; not for comparison.
    package var decodedValue: String { valueText.withBytes { PercentEncoding.decoded($0) } }

    /// "name=value", as the pair is serialised.
    package var description: String { name + "=" + value }

    /// Orders by name bytes, then value bytes, so that pairs sharing a name stay together in the order of
    /// their values and the canonical order never depends on Unicode tables.
    package static func < (lhs: FormPair, rhs: FormPair) -> Bool {
        let byName = PairText.compare(lhs.nameText, rhs.nameText)
        if byName != 0 { return byName < 0 }
        return PairText.compare(lhs.valueText, rhs.valueText) < 0
    }

    /// Equal when name and value bytes are equal; unlike `String`'s `==`, canonically equivalent but
    /// differently encoded Unicode is not equal, matching the byte order of `<`.
    package static func == (lhs: FormPair, rhs: FormPair) -> Bool {
        PairText.equal(lhs.nameText, rhs.nameText) && PairText.equal(lhs.valueText, rhs.valueText)
    }

    /// Hashes the name and value bytes, consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        nameText.hash(into: &hasher)
        valueText.hash(into: &hasher)
    }
}
