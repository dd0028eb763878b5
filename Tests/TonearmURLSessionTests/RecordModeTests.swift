import Testing
import TonearmURLSession

@Suite struct RecordModeTests {
    @Test func theEnvironmentOverridesCode() throws {
        #expect(try RecordMode.resolve(requested: .never, environment: ["TONEARM_RECORD": "all"]) == .all)
        #expect(try RecordMode.resolve(requested: .all, environment: ["TONEARM_RECORD": "Passthrough"]) == .passthrough)
    }

    @Test func codeWinsOverTheDefaults() throws {
        #expect(try RecordMode.resolve(requested: .all, environment: ["CI": "true"]) == .all)
    }

    @Test func ciNeverRecordsByDefault() throws {
        #expect(try RecordMode.resolve(requested: nil, environment: ["CI": "true"]) == .never)
        #expect(try RecordMode.resolve(requested: nil, environment: ["CI": "1"]) == .never)
        #expect(try RecordMode.resolve(requested: nil, environment: ["CI": "false"]) == .missing)
        #expect(try RecordMode.resolve(requested: nil, environment: [:]) == .missing)
    }

    @Test func aTypoInTheVariableIsAnErrorNotASilentRecording() {
        #expect {
            _ = try RecordMode.resolve(requested: .never, environment: ["TONEARM_RECORD": "sometimes"])
        } throws: { error in
            (error as? TonearmError)?.identifier == "invalidRecordMode"
                && "\(error)".contains("\"sometimes\"") && "\(error)".contains("never, missing, all, passthrough")
        }
    }

    @Test func modesRoundTripThroughTheNamesTheEnvironmentUses() {
        for mode in RecordMode.allCases {
            #expect(RecordMode(rawValue: mode.rawValue) == mode)
        }
        #expect(RecordMode.allCases.map(\.rawValue) == ["never", "missing", "all", "passthrough"])
        #expect(RecordMode(rawValue: "sometimes") == nil)
    }
}
