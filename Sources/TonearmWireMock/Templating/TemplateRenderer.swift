/// Renders parsed nodes against a context, counting every step and output byte against its limits.
struct TemplateRenderer {
    /// One context level: `{{#each}}` and `{{#with}}` push one, with data variables (`@index`, `@key`).
    struct Frame {
        var value: TemplateValue
        var data: [String: TemplateValue] = [:]
    }

    private(set) var output = ""
    private var outputBytes = 0
    private var steps = 0
    private let limits: TemplateLimits
    /// Whether `{{…}}` output is HTML-escaped: WireMock 2.35's Handlebars escapes it, WireMock 3's does not.
    private let escapes: Bool
    private var frames: [Frame]
    /// Values helpers assign by name (`regexExtract … 'parts'`), visible from the root.
    private var variables: [String: TemplateValue] = [:]

    init(root: TemplateValue, limits: TemplateLimits, escapes: Bool = true) {
        self.limits = limits
        self.escapes = escapes
        frames = [Frame(value: root)]
    }

    mutating func render(_ nodes: [TemplateNode]) throws(TemplateError) {
        for node in nodes {
            try step()
            switch node {
            case .text(let text):
                try emit(text)
            case .output(let expression, let escaped):
                let text = try evaluate(expression).text
                try emit(escaped && escapes ? Self.escapingHTML(text) : text)
            case .block(let call, let body, let inverse):
                try renderBlock(call, body: body, inverse: inverse)
            }
        }
    }

    private mutating func renderBlock(_ call: TemplateCall, body: [TemplateNode], inverse: [TemplateNode]) throws(TemplateError) {
        let arguments = try evaluateArguments(call)
        let first = arguments.first ?? .null
        switch call.helper {
        case .each:
            let elements = first.elements
            guard !elements.isEmpty else { return try render(inverse) }
            for (index, element) in elements.enumerated() {
                try step()
                // Handlebars.java's `@first` and `@last` are the words "first" and "last", or nothing: what
                // `{{@first}}` writes in WireMock (2.35 and 3), still true or false to `{{#if}}`.
                var data: [String: TemplateValue] = [
                    "index": .integer(index),
                    "first": index == 0 ? .string("first") : .null,
                    "last": index == elements.count - 1 ? .string("last") : .null,
                ]
                if let key = element.key { data["key"] = .string(key) }
                frames.append(Frame(value: element.value, data: data))
                defer { frames.removeLast() }
                try render(body)
            }
        case .with:
            guard first.isTruthy else { return try render(inverse) }
            frames.append(Frame(value: first))
            defer { frames.removeLast() }
            try render(body)
        case .unless:
            try render(first.isTruthy ? inverse : body)
        case .arrayJoin:
            // Each item rendered through the block, with the item as its context.
            let options = try evaluateOptions(call)
            let joined = try TemplateJSONHelpers.arrayJoin(arguments, options: options) { item throws(TemplateError) -> String in
                try step()
                frames.append(Frame(value: item))
                defer { frames.removeLast() }
                return try captured(body)
            }
            try emit(joined.text)
        case let helper where helper.takesBlockContent:
            let options = try evaluateOptions(call)
            let block = try captured(body)
            let limits = remaining
            try emit(try TemplateHelpers.call(call, arguments, options: options, variables: &variables, limits: limits, block: block).text)
        default:
            var value = first
            if call.helper != .if {
                let options = try evaluateOptions(call)
                let limits = remaining
                value = try TemplateHelpers.call(call, arguments, options: options, variables: &variables, limits: limits)
            }
            try render(value.isTruthy ? body : inverse)
        }
    }

    /// What `nodes` render to, apart from the output (a block that is a helper's input); its bytes count
    /// against the limits all the same.
    private mutating func captured(_ nodes: [TemplateNode]) throws(TemplateError) -> String {
        let outer = output
        output = ""
        defer { output = outer }
        try render(nodes)
        return output
    }

    private mutating func evaluate(_ expression: TemplateExpression) throws(TemplateError) -> TemplateValue {
        try step()
        switch expression {
        case .literal(let value):
            return value
        case .path(let path):
            return resolve(path)
        case .call(let call):
            let arguments = try evaluateArguments(call)
            let options = try evaluateOptions(call)
            switch call.helper {
            case .if: return .bool(arguments.first?.isTruthy ?? false)
            case .unless: return .bool(!(arguments.first?.isTruthy ?? false))
            case .each, .with: return arguments.first ?? .null
            default:
                let limits = remaining
                return try TemplateHelpers.call(call, arguments, options: options, variables: &variables, limits: limits)
            }
        }
    }

    private mutating func evaluateArguments(_ call: TemplateCall) throws(TemplateError) -> [TemplateValue] {
        var values: [TemplateValue] = []
        for argument in call.arguments { values.append(try evaluate(argument)) }
        return values
    }

    private mutating func evaluateOptions(_ call: TemplateCall) throws(TemplateError) -> [String: TemplateValue] {
        var values: [String: TemplateValue] = [:]
        for (key, option) in call.options { values[key] = try evaluate(option) }
        return values
    }

    /// The value at `path`: from the context `parents` levels up, its first segment looked up through the
    /// enclosing contexts and then the assigned variables, as Handlebars resolves names.
    private func resolve(_ path: TemplatePath) -> TemplateValue {
        let level = frames.count - 1 - path.parents
        guard level >= 0 else { return .null }
        if path.isData {
            guard let name = path.segments.first else { return .null }
            for frame in frames[...level].reversed() {
                if let value = frame.data[name] { return follow(value, path.segments.dropFirst()) }
            }
            return .null
        }
        guard let first = path.segments.first else { return frames[level].value }
        var start: TemplateValue?
        for frame in frames[...level].reversed() {
            if let value = frame.value.member(first) { start = value; break }
            if path.parents > 0 { break }
        }
        if start == nil { start = variables[first] }
        guard let start else { return .null }
        return follow(start, path.segments.dropFirst())
    }

    private func follow(_ value: TemplateValue, _ segments: ArraySlice<String>) -> TemplateValue {
        var current = value
        for segment in segments {
            guard let next = current.member(segment) else { return .null }
            current = next
        }
        return current
    }

    private var remaining: TemplateLimits {
        TemplateLimits(outputBytes: limits.outputBytes - outputBytes, steps: limits.steps - steps)
    }

    private mutating func step() throws(TemplateError) {
        steps += 1
        guard steps <= limits.steps else {
            throw TemplateError(position: nil, expected: "a rendering of at most \(limits.steps) steps", found: "more (a loop over too much data?)")
        }
    }

    private mutating func emit(_ text: String) throws(TemplateError) {
        outputBytes += text.utf8.count
        guard outputBytes <= limits.outputBytes else {
            throw TemplateError(position: nil, expected: "at most \(limits.outputBytes) bytes of output", found: "more")
        }
        output += text
    }

    /// Handlebars' escaping of `{{…}}` output: `&<>"'` and `` ` `` and `=` as entities.
    static func escapingHTML(_ text: String) -> String {
        guard text.utf8.contains(where: { [38, 60, 62, 34, 39, 96, 61].contains($0) }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#x27;"
            case "`": escaped += "&#x60;"
            case "=": escaped += "&#x3D;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
