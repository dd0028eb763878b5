import Foundation
import TonearmTestSupport

/// The Python interpreter with the PyPI `wiremock` and `requests` packages: `TONEARM_WIREMOCK_PYTHON`,
/// else the virtual environment `.ci/run` creates in `.build/python-venv`.
package enum WireMockPython {
    package static let interpreter: String? = {
        if let given = ProcessInfo.processInfo.environment["TONEARM_WIREMOCK_PYTHON"], !given.isEmpty { return given }
        let venv = packageRoot.appendingPathComponent(".build/python-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }()

    /// CI sets `TONEARM_REQUIRE_WIREMOCK_PYTHON=1`: there a missing interpreter fails instead of skipping.
    package static let required = ProcessInfo.processInfo.environment["TONEARM_REQUIRE_WIREMOCK_PYTHON"] == "1"

    package static let missingMessage =
        "no Python with the wiremock client: run .ci/run once (it creates .build/python-venv) or set TONEARM_WIREMOCK_PYTHON"

    package static func script(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/TonearmServerTests/Python/\(name)").path
    }
}
