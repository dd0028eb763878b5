import Foundation

/// The package's root folder (where Package.swift, docs/, Examples/ and scripts/ are), found from this
/// file's place in the source tree, so tests can read the documents and run the scripts they check.
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TonearmTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
