import TonearmServer

extension ServerConfiguration.WireMock: ServerExtensionInstaller {
    /// WireMock's admin API answers under `/__admin`.
    package var reservedPrefix: String { "/__admin" }

    /// The mappings of ``rootDirectory`` (a broken one fails the start), the admin API over them and
    /// the server's journal, and the stage answering from them.
    package func makeExtension(in context: ServerExtensionContext) throws(ServerError) -> any ServerExtension {
        let stubs = try WireMockStubs(
            rootDirectory: rootDirectory.map { url throws(ServerError) in try WireMockRootDirectory(url, self) }, self)
        let admin = WireMockAdmin(
            wireMock: stubs, journal: context.journal, address: context.address, recorder: WireMockRecorder(),
            redaction: context.configuration.redaction, shutdown: context.shutdown, version: version)
        return WireMockExtension(stubs: stubs, apiStage: WireMockAdminStage(admin: admin), limits: context.configuration.limits)
    }
}
