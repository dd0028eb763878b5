import ArgumentParser
import Tonearm
import TonearmCassettes

/// Reads a request given as a JSON document on standard input, with the stub schema's request reader
/// (docs/cassette-format.md, "Stub schema"), so big integers and member order in a JSON body survive
/// exactly and a misspelt member is an error.
enum RequestDocument {
    static func decode(_ bytes: [UInt8]) throws -> Request {
        do throws(CassetteError) {
            return try StubSchema.decodeRequest(bytes, file: "standard input")
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
