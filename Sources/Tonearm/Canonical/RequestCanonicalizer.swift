/// Turns requests into their ``CanonicalRequest`` and ``RequestKey`` under one ``MatchingConfiguration``.
///
/// This is the hot path of every match: it works on UTF-8 bytes and builds one output buffer. Recorded
/// tracks and live requests must go through the same canonicalizer for their keys to be comparable.
public struct RequestCanonicalizer: Sendable, Hashable {
    /// The configuration the keys are built under.
    public let configuration: MatchingConfiguration

    private let includesMethod: Bool
    private let includesURL: Bool
    private let includesPath: Bool
    private let includesQuery: Bool
    private let includesBody: Bool
    private let headerNames: [String]
    private let ignoredParameters: Set<String>
    private let json: JSONCanonicalizer

    /// Creates a canonicalizer for `configuration`.
    public init(_ configuration: MatchingConfiguration = .default) {
        self.configuration = configuration
        let attributes = configuration.attributes
        includesMethod = attributes.contains(.method)
        includesURL = attributes.contains(.url)
        includesPath = attributes.contains(.path) && !attributes.contains(.url)
        includesQuery = attributes.contains(.query)
        includesBody = attributes.contains(.body)
        headerNames = configuration.headerNames
        ignoredParameters = Set(configuration.ignoredQueryParameters.map(FormEncoding.canonicalName))
        json = JSONCanonicalizer(ignoring: configuration.ignoredJSONFields)
    }

    /// The canonical form of `request`.
    public func canonicalize(_ request: Request) -> CanonicalRequest {
        let url = NormalizedURL(request.url)
        let method = request.method.asciiUppercased
        var output: [UInt8] = []
        output.reserveCapacity(request.url.utf8.count + request.body.count + 48)
        var notes: [CanonicalRequest.Note] = []
        var bodyKind: BodyKind?

        if includesMethod { Self.appendField(.method, method, to: &output) }
        // The URL's bytes are read in place: building `withoutQuery` and `query` Strings would cost
        // about 40% of a GET's key.
        url.withUnsafeBytes { withoutQuery, query in
            if includesURL { Self.appendField(.url, withoutQuery, to: &output) }
            if includesPath { Self.appendField(.path, url.path, to: &output) }
            if includesQuery {
                Self.appendField(.query, to: &output) { output in
                    guard let query else { return }
                    FormEncoding.appendCanonical(query, ignoring: ignoredParameters, to: &output)
                }
            }
        }
        for name in headerNames {
            for value in request.headers.values(named: name) {
                Self.appendField(.headerPrefix, suffix: name, value.trimmingHTTPWhitespace, to: &output)
            }
        }
        if includesBody {
            bodyKind = appendBody(of: request, to: &output, notes: &notes)
        }
        return CanonicalRequest(bytes: output, url: url, method: method, bodyKind: bodyKind, notes: notes)
    }

    /// The key of `request`: the hash of its canonical form.
    public func key(for request: Request) -> RequestKey {
        RequestKey(canonicalBytes: canonicalize(request).bytes)
    }

    private func appendBody(
        of request: Request, to output: inout [UInt8], notes: inout [CanonicalRequest.Note]
    ) -> BodyKind {
        let body = request.body
        var kind = body.isEmpty
            ? BodyKind.raw
            : BodyKind.forContentType(
                request.headers.first(named: "content-type"),
                additionalJSON: configuration.additionalJSONMediaTypes)
        if kind == .json {
            var failure: JSONSyntaxError?
            let fieldStart = output.count
            Self.appendField(.jsonBody, to: &output) { output in
                body.withUnsafeBytes { buffer in
                    do throws(JSONSyntaxError) {
                        try json.canonicalize(buffer, appendingTo: &output)
                    } catch {
                        failure = error
                    }
                }
            }
            guard let failure else { return .json }
            output.removeSubrange(fieldStart...)
            notes.append(.init(message: "JSON body did not parse (\(failure)); matched as raw bytes"))
            kind = .raw
        }
        switch kind {
        case .form:
            Self.appendField(.formBody, to: &output) { output in
                body.withUnsafeBytes { FormEncoding.appendCanonical($0, ignoring: ignoredParameters, to: &output) }
            }
        case .raw, .json:
            body.withUnsafeBytes { Self.appendField(.rawBody, $0, to: &output) }
        }
        return kind
    }

    /// Appends `label SP length SP value LF`.
    static func appendField(_ label: CanonicalLabel, suffix: String = "", _ value: String, to output: inout [UInt8]) {
        appendLabel(label, to: &output)
        if !suffix.isEmpty { output.append(contentsOf: suffix.utf8) }
        output.append(0x20)
        appendDecimal(value.utf8.count, to: &output)
        output.append(0x20)
        output.append(contentsOf: value.utf8)
        output.append(0x0A)
    }

    /// Appends `label SP length SP value LF` for a value held as bytes.
    static func appendField(_ label: CanonicalLabel, _ value: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        appendLabel(label, to: &output)
        output.append(0x20)
        appendDecimal(value.count, to: &output)
        output.append(0x20)
        output.append(contentsOf: value)
        output.append(0x0A)
    }

    /// Appends a field whose value `writeValue` appends; the length is inserted once the value is known,
    /// so large bodies are written once instead of through a temporary buffer.
    static func appendField(_ label: CanonicalLabel, to output: inout [UInt8], _ writeValue: (inout [UInt8]) -> Void) {
        appendLabel(label, to: &output)
        output.append(0x20)
        let valueStart = output.count
        writeValue(&output)
        let length = output.count - valueStart
        withDecimalDigits(of: length) { digits in
            // Shift the value right in place to open a gap for "length SP"; no temporary array.
            let gap = digits.count + 1
            output.append(contentsOf: repeatElement(0, count: gap))
            output.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress, let digitBytes = digits.baseAddress else { return }
                // copyMemory is a memmove: the value's old and new places overlap.
                (base + valueStart + gap).copyMemory(from: base + valueStart, byteCount: length)
                (base + valueStart).copyMemory(from: digitBytes, byteCount: digits.count)
                buffer[valueStart + digits.count] = 0x20
            }
        }
        output.append(0x0A)
    }

    /// Labels are compile-time constants: their bytes are appended straight from the binary.
    @inline(__always)
    private static func appendLabel(_ label: CanonicalLabel, to output: inout [UInt8]) {
        label.bytes.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value < 10 {
            output.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        withDecimalDigits(of: value) { output.append(contentsOf: $0) }
    }

    /// Calls `body` with the decimal digits of a non-negative `value`, written on the stack.
    private static func withDecimalDigits<R>(of value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var remaining = value
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
            } while remaining > 0
            return body(UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }
}
