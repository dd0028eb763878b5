// A test target that imports TonearmServerTesting uses the server it scopes (`TonearmServer`,
// `ServerConfiguration`) and everything TonearmTesting brings, so `import TonearmServerTesting` is the one
// import it needs.
@_exported import TonearmServer
@_exported import TonearmTesting
