/// What a launched process's arguments (`ProcessInfo.arguments`, as a UI test's `launchArguments` sets
/// them) say about stubbing.
///
/// - `STUB_API_CALLS_<name>` (or `-STUB_API_CALLS_<name>`) selects the stub bundle `<name>.bundle`;
///   several select several, answering in argument order.
/// - `-TONEARM_CASSETTE path`, and the same for every variable in
///   ``TonearmSession/EnvironmentVariable/all``, sets that variable; such an argument wins over the
///   environment, as Apple's argument domain wins over other defaults.
///
/// Anything else (the executable's path, the app's own arguments) is left alone.
struct LaunchArguments {
    /// The prefix selecting a stub bundle.
    static let stubBundlePrefix = "STUB_API_CALLS_"

    /// Variables given as `-NAME value` pairs.
    private(set) var variables: [String: String] = [:]
    /// Stub bundle names, in argument order, each once.
    private(set) var stubBundles: [String] = []

    init(_ arguments: [String]) throws(TonearmError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = argument.hasPrefix("-") ? String(argument.dropFirst()) : argument
            if name.hasPrefix(Self.stubBundlePrefix) {
                let bundle = String(name.dropFirst(Self.stubBundlePrefix.count))
                guard !bundle.isEmpty, !bundle.contains("/"), bundle != ".", bundle != ".." else {
                    throw .launchArgument(argument, detail: "expected \(Self.stubBundlePrefix)<name> naming <name>.bundle, found no usable name")
                }
                if !stubBundles.contains(bundle) { stubBundles.append(bundle) }
            } else if argument.hasPrefix("-"), TonearmSession.EnvironmentVariable.all.contains(name) {
                let valueIndex = arguments.index(after: index)
                guard valueIndex < arguments.endIndex else {
                    throw .launchArgument(argument, detail: "expected a value after it, found the end of the arguments")
                }
                variables[name] = arguments[valueIndex]
                index = valueIndex
            }
            index = arguments.index(after: index)
        }
    }
}
