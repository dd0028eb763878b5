import Foundation
import TonearmServer
import TonearmTestSupport

/// A real HTTPS upstream on 127.0.0.1 port 0: Python's `http.server` behind Python's `ssl`
/// (Python/https_upstream.py), presenting a leaf for `localhost` and `127.0.0.1` (or the names given) signed by a CA of its own,
/// made for the test and never written outside its temporary folder. It answers JSON naming the method,
/// the path, the body and how many requests it has served.
final class HTTPSUpstream: Sendable {
    private let server: PythonServer
    /// The port it listens on.
    var port: Int { server.port }
    /// The PEM file of the CA its certificate is signed by, for `--upstream-ca`.
    let caFile: URL

    init(in folder: TemporaryFolder, names: [String] = ["localhost", "127.0.0.1"]) async throws {
        let authority = try LocalCertificateAuthority.makeEphemeral(label: "test upstream")
        let leaf = try authority.issueLeaf(for: names)
        let certificate = folder.file("upstream-cert.pem"), key = folder.file("upstream-key.pem")
        caFile = folder.file("upstream-ca.pem")
        try Data(leaf.certificatePEM.utf8).write(to: certificate)
        try Data(leaf.privateKeyPEM.utf8).write(to: key)
        try Data(authority.certificatePEM.utf8).write(to: caFile)
        server = try await PythonServer("https_upstream.py", arguments: [certificate.path, key.path])
    }

    /// Ends it and waits for the exit.
    func stop() async throws {
        try await server.stop()
    }
}

/// A test server written in Python (a script in Tests/TonearmServerTests/Python): launched with its
/// arguments, it listens on 127.0.0.1 port 0, prints the port on one line, and exits when its standard
/// input closes.
final class PythonServer: Sendable {
    private let process: ChildProcess
    /// The port it listens on.
    let port: Int

    /// Starts `script` with `python` (a path, or `python3` from the `PATH`).
    init(_ script: String, arguments: [String] = [], python: String = "python3") async throws {
        let process = try ChildProcess("/usr/bin/env", [python, Self.script(script)] + arguments, errorsToRunner: true)
        self.process = process
        let line = try await blocking {
            var bytes: [UInt8] = []
            while let byte = try? process.output.read(upToCount: 1), let first = byte.first, first != 0x0A {
                bytes.append(first)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let port = Int(line) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    /// `http://127.0.0.1:PORT`.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// Closes its standard input, which ends it, and waits for the exit.
    func stop() async throws {
        try process.input.close()
        _ = try await blocking { [process] in process.waitUntilExit() }
    }

    static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/\(name)").path
    }
}

/// Runs curl with `arguments` (never reading the user's ~/.curlrc), with no proxy or CA from the runner's
/// environment but those in `environment`.
func curl(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessRun {
    try await ProcessRun.run("/usr/bin/env", ["curl", "-q", "--max-time", "30"] + arguments, environment: clientEnvironment(environment))
}

/// The test runner's environment without any proxy or CA setting it may carry, plus `extra`.
func clientEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"] {
        environment[name] = nil
        environment[name.lowercased()] = nil
    }
    environment.merge(extra) { $1 }
    return environment
}
