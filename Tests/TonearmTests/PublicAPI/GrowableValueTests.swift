import Testing
import Tonearm

/// The values that will gain cases are structs: users read them through names and typed accessors, and
/// those must keep saying what the old enum cases said.
@Suite struct GrowableValueTests {
    @Test func missReasonsNameThemselvesForHeadersAndOpenTheirDescriptionWithThatName() {
        let reasons: [(MissReason, String)] = [
            (.notRecorded, "never recorded"),
            (.exhausted(trackCount: 3), "exhausted"),
            (.outOfOrder(expectedPosition: 2), "out of order"),
            (.sequenceFinished(trackCount: 4), "sequence finished"),
            (.noRuleMatched(ruleCount: 5, rulesTried: 1), "no rule matched"),
            (.everyStageMissed([.notRecorded]), "every stage missed"),
        ]
        for (reason, name) in reasons {
            #expect(reason.name == name)
            #expect(reason.description.hasPrefix(name + ":"))
        }
        #expect(reasons.map(\.0.identifier) == [
            "not-recorded", "exhausted", "out-of-order", "sequence-finished", "no-rule-matched", "every-stage-missed",
        ])
        #expect(MissReason.custom("teapot").name == "custom")
        #expect(MissReason.custom("teapot").description == "teapot")
    }

    @Test func missReasonsGiveTheirNumbersWithoutASwitch() {
        #expect(MissReason.exhausted(trackCount: 3).trackCount == 3)
        #expect(MissReason.sequenceFinished(trackCount: 4).trackCount == 4)
        #expect(MissReason.notRecorded.trackCount == nil)
        #expect(MissReason.outOfOrder(expectedPosition: 2).expectedPosition == 2)
        #expect(MissReason.noRuleMatched(ruleCount: 5, rulesTried: 1).ruleCount == 5)
        #expect(MissReason.noRuleMatched(ruleCount: 5, rulesTried: 1).rulesTried == 1)
        #expect(MissReason.everyStageMissed([.notRecorded, .exhausted(trackCount: 1)]).stages == [.notRecorded, .exhausted(trackCount: 1)])
        #expect(MissReason.custom("teapot").customMessage == "teapot")
        #expect(MissReason.exhausted(trackCount: 3) != .exhausted(trackCount: 2))
    }

    @Test func fieldDifferencesExposeTheirSidesWithoutASwitch() {
        let header = FieldDifference.header(name: "Accept", recorded: ["a"], received: [])
        #expect(header.identifier == "header")
        #expect(header.fieldName == "Accept")
        #expect(header.recorded == ["a"])
        #expect(header.received == [])
        #expect(header.description == #"header "Accept" missing: recorded "a""#)

        let method = FieldDifference.method(recorded: "GET", received: "POST")
        #expect(method.recorded == ["GET"] && method.received == ["POST"] && method.fieldName == nil)

        let kinds = FieldDifference.bodyKind(recorded: .json, received: nil)
        #expect(kinds.recordedBodyKind == .json && kinds.receivedBodyKind == nil && kinds.recorded == nil)

        let raw = FieldDifference.rawBody(recordedLength: 3, receivedLength: 4, firstDifference: 1)
        #expect(raw.identifier == "rawBody")
        #expect(raw.recordedLength == 3 && raw.receivedLength == 4 && raw.firstDifference == 1)
    }

    @Test func transportErrorIdentifiersRoundTripAndOtherCarriesItsCode() {
        for error in TransportError.named {
            #expect(TransportError(identifier: error.identifier) == error)
            #expect(error.platformCode == nil && error.message == nil)
        }
        #expect(TransportError.timedOut.identifier == "timedOut")
        #expect(TransportError.timedOut.description == "transport error: timedOut")
        let other = TransportError.other(code: -1234, message: "odd")
        #expect(other.identifier == "other(-1234)")
        #expect(other.platformCode == -1234 && other.message == "odd")
        #expect(other.description == "transport error -1234: odd")
        #expect(TransportError(identifier: other.identifier) == nil)
    }

    @Test func exhaustionPoliciesReadAsBeforeAtTheCallSite() {
        #expect(Strategy.ExhaustionPolicy.repeatLast != .miss)
        #expect("\(Strategy.ExhaustionPolicy.miss)" == "miss")
        let engine = ReplayEngine(tracks: [Track(request: Request(url: "https://a.example/x"), response: Response(status: 200))],
                                  strategy: .fifo(whenExhausted: .miss))
        #expect(engine.match(Request(url: "https://a.example/x")).hit != nil)
        #expect(engine.match(Request(url: "https://a.example/x")).missReport?.reason.name == "exhausted")
    }
}

@Suite struct GrowableKeyValueTests {
    @Test func matchAttributesNameThemselvesAsTheCommandLineReadsThem() throws {
        let attributes: [MatchAttribute] = [.method, .url, .path, .query, .body, .header("X-Trace")]
        #expect(attributes.map(\.name) == ["method", "url", "path", "query", "body", "header:x-trace"])
        for attribute in attributes.dropLast() {
            #expect(MatchAttribute(name: attribute.name) == attribute)
        }
        #expect(try #require(MatchAttribute(name: "header:x-trace")).headerName == "x-trace")
        #expect(MatchAttribute.header("X-Trace").headerName == "X-Trace")
        #expect(MatchAttribute.method.headerName == nil)
    }

    @Test func bodyKindsAndTextConditionsKeepTheirNames() {
        #expect([BodyKind.json, .form, .raw].map(\.rawValue) == ["json", "form", "raw"])
        #expect(BodyKind(rawValue: "form") == .form && BodyKind(rawValue: "xml") == nil)
        let conditions: [TextCondition] = [.equals("a"), .contains("b"), .matches("^c$"), .present, .absent]
        #expect(conditions.map(\.identifier) == ["equals", "contains", "matches", "present", "absent"])
        #expect(conditions.map(\.operand) == ["a", "b", "^c$", nil, nil])
        #expect(TextCondition.equals("a") != .contains("a"))
    }
}
