import Tonearm

/// A file read up to its tracks: everything an import has but the entries, and a way to read those one
/// at a time, so a loader can index each track as it is read instead of holding a `Cassette` of them.
///
/// The file has been validated as a whole already; reading the entries can still fail on an entry
/// that does not make a track, which is why ``readEntries`` throws. The import is all-or-nothing still:
/// a caller keeps what it built from the entries only when every entry was read.
struct StreamedImport {
    /// The import without its entries.
    var header: CassetteImport
    /// Hands each entry to `each`, in order; returns the warnings reading them produced.
    let readEntries: (_ each: (CassetteEntry) throws(CassetteError) -> Void) throws(CassetteError) -> [ImportWarning]

    init(
        header: CassetteImport,
        readEntries: @escaping (_ each: (CassetteEntry) throws(CassetteError) -> Void) throws(CassetteError) -> [ImportWarning]
    ) {
        self.header = header
        self.readEntries = readEntries
    }

    /// An import read whole, handed on entry by entry from memory.
    init(whole imported: CassetteImport) {
        var header = imported
        header.cassette.entries = []
        self.header = header
        let entries = imported.cassette.entries
        readEntries = { (each) throws(CassetteError) in
            for entry in entries { try each(entry) }
            return []
        }
    }

    /// The whole import, entries collected.
    func collected() throws(CassetteError) -> CassetteImport {
        var imported = header
        let warnings = try readEntries { imported.cassette.entries.append($0) }
        imported.warnings += warnings
        return imported
    }
}
