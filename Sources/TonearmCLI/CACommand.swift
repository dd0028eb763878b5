import ArgumentParser
import Foundation
import TonearmServer
import TonearmCommands

/// `tonearm ca`: makes (once) the local CA that signs what `tonearm serve` presents over TLS, and says
/// how to trust it.
struct CACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Create (once) and show the local CA that tonearm serve signs its HTTPS certificates with.",
        discussion: """
            The CA is kept in --ca-dir (default ~/.tonearm/ca): tonearm-ca.pem (the certificate to trust) and \
            tonearm-ca-key.pem (its key, readable by you only). Its subject says "Tonearm local test CA": trust \
            it on test machines only. Prints the certificate's path, its PEM and how to trust it.
            """
    )

    @Option(name: .customLong("ca-dir"), help: "The folder the CA is kept in (created if missing).")
    var caDir: String = CACommand.defaultFolder

    @Option(name: .customLong("time-leaves"), help: "Instead: sign N leaves with a throwaway in-memory CA and print the time each took (a benchmark; nothing is written).")
    var timeLeaves: Int?

    /// `~/.tonearm/ca`, shared by `tonearm ca` and `tonearm serve --ca-dir`.
    static var defaultFolder: String {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".tonearm/ca").path
    }

    func run() throws {
        if let timeLeaves { return try Self.timeLeafSigning(count: timeLeaves) }
        let authority: LocalCertificateAuthority
        do {
            authority = try LocalCertificateAuthority.loadOrCreate(in: URL(fileURLWithPath: caDir, isDirectory: true))
        } catch {
            CLIFormat.printError("error: \(error)")
            throw ExitCode(2)
        }
        let path = authority.certificateFile?.path ?? caDir
        print("certificate: \(path)")
        print("")
        print(authority.certificatePEM, terminator: "")
        print("")
        print(Self.trustInstructions(certificate: path))
    }

    /// Signs `count` leaves (a fresh P-256 key each, as a tunnel's first handshake does) and prints the
    /// median, 99th percentile and mean per leaf.
    private static func timeLeafSigning(count: Int) throws {
        guard count > 0 else { throw ValidationError("--time-leaves \(count): expected at least 1") }
        let authority = try LocalCertificateAuthority.makeEphemeral(label: "benchmark")
        var times: [Duration] = []
        times.reserveCapacity(count)
        let clock = ContinuousClock()
        for index in 0..<count {
            let started = clock.now
            _ = try authority.issueLeaf(for: ["host\(index).example.com"])
            times.append(clock.now - started)
        }
        times.sort()
        let total = times.reduce(Duration.zero, +)
        let milliseconds = { (duration: Duration) in String(format: "%.3f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000) }
        print("leaves: \(count)  median: \(milliseconds(times[count / 2]))  p99: \(milliseconds(times[min(count - 1, count * 99 / 100)]))  mean: \(milliseconds(total / count))")
    }

    /// How to make each kind of client trust the CA at `certificate`.
    static func trustInstructions(certificate path: String) -> String {
        """
        Trust it (test machines only), then start the server with --intercept-https and use it as the proxy:
          curl:      curl --cacert \(path) -x http://127.0.0.1:PORT https://api.example.com/
          Python:    export REQUESTS_CA_BUNDLE=\(path) SSL_CERT_FILE=\(path) HTTPS_PROXY=http://127.0.0.1:PORT
          Node:      export NODE_EXTRA_CA_CERTS=\(path) HTTPS_PROXY=http://127.0.0.1:PORT
          Java:      keytool -importcert -noprompt -alias tonearm-local-test-ca -file \(path) -keystore test-truststore.jks -storepass changeit
                     (run with -Djavax.net.ssl.trustStore=test-truststore.jks -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=PORT)
          iOS Simulator:    xcrun simctl keychain booted add-root-cert \(path)
          Android emulator: adb push \(path) /sdcard/Download/tonearm-ca.crt, then Settings > Security > Encryption & credentials >
                     Install a certificate > CA certificate (apps trust user CAs only if their network_security_config says so);
                     start the emulator with -http-proxy http://10.0.2.2:PORT
        """
    }
}
