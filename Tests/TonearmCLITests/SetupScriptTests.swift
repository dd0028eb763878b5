import Foundation
import Testing
import TonearmTestSupport

/// README's two commands and `.ci/run` start with `scripts/setup-system.sh`. These run it on a PATH of
/// stub commands standing for machines that lack packages, so what it would install (and how) is checked
/// without installing anything: the stub `apt-get` and `sudo` only log their arguments.
@Suite("scripts/setup-system.sh")
struct SetupScriptTests {
    @Test("a machine with everything installs nothing")
    func nothingMissing() throws {
        let machine = try StubMachine(present: StubMachine.everything)
        for job in ["demo", "test"] {
            let run = try machine.run(job)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.log.isEmpty, "apt-get must not run: \(run.log)")
        }
    }

    @Test("as root, exactly the missing packages are installed with apt-get, non-interactively")
    func rootInstallsTheMissingPackages() throws {
        let machine = try StubMachine(present: ["pkg-config", "zlib"])
        let run = try machine.run("test")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.log == [
            "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)",
            "apt-get install -y -qq --no-install-recommends libxxhash-dev curl (DEBIAN_FRONTEND=noninteractive)",
        ])
    }

    @Test("without pkg-config, every library it would find counts as missing; the demo needs no curl")
    func demoWithoutPkgConfig() throws {
        let run = try StubMachine(present: []).run("demo")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.log.last == "apt-get install -y -qq --no-install-recommends pkg-config libxxhash-dev zlib1g-dev (DEBIAN_FRONTEND=noninteractive)")
    }

    @Test("not root: through sudo when there is one, else a message naming the command and exit 1")
    func notRoot() throws {
        let withSudo = try StubMachine(present: ["pkg-config", "libxxhash", "curl"], root: false, sudo: true).run("test")
        #expect(withSudo.status == 0, "\(withSudo.errors)")
        #expect(withSudo.log == [
            "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
            "apt-get update -qq (DEBIAN_FRONTEND=noninteractive)",
            "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends zlib1g-dev",
            "apt-get install -y -qq --no-install-recommends zlib1g-dev (DEBIAN_FRONTEND=noninteractive)",
        ])

        let withoutSudo = try StubMachine(present: ["pkg-config", "libxxhash", "curl"], root: false, sudo: false).run("test")
        #expect(withoutSudo.status == 1)
        #expect(withoutSudo.log.isEmpty)
        #expect(withoutSudo.errors.contains("apt-get install -y zlib1g-dev"), "\(withoutSudo.errors)")
    }

    @Test("no apt-get: it names what is missing and exits 1")
    func noApt() throws {
        let run = try StubMachine(present: ["pkg-config", "zlib", "curl"], apt: false).run("demo")
        #expect(run.status == 1)
        #expect(run.errors.contains("missing libxxhash-dev"), "\(run.errors)")
        #expect(run.errors.contains("no apt-get"))
    }
}

/// A folder of stub commands that stands for a machine: `pkg-config` finds the libraries in `present`,
/// `command -v` finds the commands in it, `id -u` says whether we are root. Removed when released.
private final class StubMachine {
    static let everything: Set<String> = ["pkg-config", "libxxhash", "zlib", "curl"]

    let folder: TemporaryFolder

    init(present: Set<String>, root: Bool = true, apt: Bool = true, sudo: Bool = false) throws {
        folder = try TemporaryFolder()
        let log = folder.file("log").path
        let libraries = present.filter { $0 != "pkg-config" && $0 != "curl" }.sorted().joined(separator: " ")
        try stub("swift", "exit 0")
        try stub("id", "echo \(root ? 0 : 1000)")
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("env").path, withDestinationPath: "/usr/bin/env")
        if present.contains("pkg-config") {
            try stub("pkg-config", #"[ "$1" = --exists ] && for lib in \#(libraries); do [ "$lib" = "$2" ] && exit 0; done; exit 1"#)
        }
        if present.contains("curl") { try stub("curl", "exit 0") }
        if apt { try stub("apt-get", #"echo "apt-get $* (DEBIAN_FRONTEND=$DEBIAN_FRONTEND)" >> \#(log)"#) }
        if sudo { try stub("sudo", #"echo "sudo $*" >> \#(log); "$@""#) }
    }

    private func stub(_ name: String, _ body: String) throws {
        let path = folder.file(name).path
        try folder.write(name, "#!/bin/bash\n\(body)\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// Runs `scripts/setup-system.sh job` with this folder as the whole PATH.
    func run(_ job: String) throws -> (status: Int32, log: [String], errors: String) {
        let logFile = folder.file("log")
        defer { try? FileManager.default.removeItem(at: logFile) }
        let run = try ProcessRun.runBlocking(
            "/bin/bash", [packageRoot.appendingPathComponent("scripts/setup-system.sh").path, job],
            environment: ["PATH": folder.url.path])
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        return (run.status, log.split(separator: "\n").map(String.init), run.errors)
    }
}
