import Foundation
import Testing
import Tonearm
import TonearmCassettes
import TonearmServer
import TonearmServerTestSupport
import TonearmTestSupport
import TonearmURLSession

@Suite("tonearm serve", .enabled(if: builtExecutable("tonearm") != nil, "the tonearm executable was not found next to the test bundle"))
struct ServeCommandTests {
    @Test("The first stdout line is the listening JSON; --ready-file gets it too; SIGTERM exits 0")
    func listeningLine() async throws {
        let folder = try TemporaryFolder()
        let ready = folder.file("ready.json")
        let server = try await ServeProcess(["--ready-file", ready.path])
        #expect(server.listening["event"] as? String == "listening")
        #expect(server.url == "http://127.0.0.1:\(server.port)")
        #expect(server.port > 0)
        let readyText = try String(contentsOf: ready, encoding: .utf8)
        #expect(readyText.contains("\"url\":\"\(server.url)\""))
        let health = try await TestClient.send(server.url + "/__tonearm/health")
        #expect(health.status == 200)
        let ended = try await server.stop()
        #expect(ended.status == 0)
    }

    @Test("SIGTERM sent the moment the listening line appears stops the server with exit 0 (8 servers at once)")
    func sigtermRightAfterListening() async throws {
        let servers = try await ServeProcess.startInParallel(8, ["--mode", "missing"], signalOnListening: SIGTERM)
        var statuses: [Int32] = []
        for server in servers { statuses.append(try await server.waitForExit().status) }
        #expect(statuses == Array(repeating: 0, count: 8))
    }

    @Test("8 servers started in parallel get 8 different ports")
    func parallelPorts() async throws {
        let servers = try await ServeProcess.startInParallel(8, [])
        #expect(Set(servers.map(\.port)).count == 8)
        for server in servers {
            #expect(try await TestClient.send(server.url + "/__tonearm/health").status == 200)
            #expect(try await server.stop().status == 0)
        }
    }

    @Test("SIGTERM while 64 clients record leaves a complete, valid cassette")
    func sigtermDuringRecording() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("busy.json")
        let upstream = try await TestUpstream()
        let server = try await ServeProcess(["--cassette", cassette.path, "--mode", "missing", "--host", upstream.origin])
        let base = server.url + "/" + upstream.authority
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for client in 0..<64 {
                group.addTask {
                    var ok = 0
                    for request in 0..<1000 {
                        guard let response = try? await TestClient.send(base + "/item/\(client)/\(request)"), response.status == 200 else { return ok }
                        ok += 1
                    }
                    return ok
                }
            }
            // Stop mid-recording: once a good number of exchanges are in, while the clients keep going.
            for _ in 0..<400 {
                let health = try? await TestClient.send(server.url + "/__tonearm/health")
                let recorded = (try? JSONSerialization.jsonObject(with: Data(health?.body ?? [])) as? [String: Any])?["recorded"] as? Int ?? 0
                if recorded >= 100 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let ended = try await server.stop()
            #expect(ended.status == 0)
            var total = 0
            for try await count in group { total += count }
            return total
        }
        try await upstream.stop()
        let loaded = try CassetteFile.load(cassette)
        #expect(answered > 0)
        // Every exchange a client saw answered from the network is in the cassette.
        #expect(loaded.cassette.tracks.count >= answered)
        #expect(loaded.cassette.tracks.count == upstream.requests.count)
    }

    @Test("Readers that went away: with stdout and stderr closed after the listening line, misses are answered and SIGTERM still saves and exits 0")
    func closedOutputPipes() async throws {
        let folder = try TemporaryFolder()
        let cassette = folder.file("closed.json")
        let upstream = try await TestUpstream()
        let server = try await ServeProcess(["--cassette", cassette.path, "--mode", "missing", "--host", upstream.origin])
        // As `tonearm serve | head -1` does, or a harness that drops its pipes once it has the port.
        try server.process.output.close()
        try server.process.errors?.close()
        let refused = try await TestClient.send(server.url + "/not-allowed.example/x")
        #expect(refused.status >= 400 && refused.status < 500)
        let recorded = try await TestClient.send(server.url + "/" + upstream.authority + "/item/1")
        #expect(recorded.status == 200)
        #expect(try await server.terminate() == 0)
        try await upstream.stop()
        #expect(try CassetteFile.load(cassette).cassette.tracks.count == 1)
    }

    @Test("A stderr pipe nobody reads never holds up requests: 1,000 logged refusals (well over a pipe's 64 KiB) are all answered, and SIGTERM exits 0")
    func unreadStandardError() async throws {
        let server = try await ServeProcess([])
        let longPath = String(repeating: "segment/", count: 25)
        for index in 0..<1_000 {
            let miss = try await TestClient.send(server.url + "/" + longPath + "\(index)")
            #expect(miss.status >= 400 && miss.status < 500)
            if miss.status < 400 || miss.status >= 500 { break }
        }
        #expect(try await server.terminate() == 0)
    }

    @Test("Two processes: the app records through the server, then replays with the upstream stopped")
    func twoProcesses() async throws {
        let app = try #require(builtExecutable("TonearmServerTestApp"))
        let folder = try TemporaryFolder()
        let cassette = folder.file("app.json")
        let upstream = try await TestUpstream()
        let recording = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .missing, hosts: [upstream.origin]))
        var environment = ProcessInfo.processInfo.environment
        environment["API_BASE_URL"] = recording.baseURL(for: upstream.authority).absoluteString
        let recorded = try await ProcessRun.run(app.path, [], environment: environment)
        try await recording.stop()
        try await upstream.stop()
        #expect(recorded.status == 0, "\(recorded.errors)")

        let replaying = try await TonearmServer.start(quietConfiguration(cassette: cassette, mode: .never))
        environment["API_BASE_URL"] = replaying.baseURL(for: upstream.authority).absoluteString
        let replayed = try await ProcessRun.run(app.path, [], environment: environment)
        try await replaying.stop()
        #expect(replayed.status == 0, "\(replayed.errors)")
        #expect(replayed.output == recorded.output)
        #expect(recorded.output.contains("200 {"))
        #expect(replaying.misses.isEmpty)
    }
}
