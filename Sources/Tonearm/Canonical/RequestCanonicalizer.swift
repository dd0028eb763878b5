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
    ///
    /// Every line but a JSON body has a size bound known before writing (a canonical query or form body is
    /// at most three times its input), so those lines are written through a pointer into an array made at
    /// that capacity; a JSON body, whose canonical length is not bounded by its input, is appended after.
    public func canonicalize(_ request: Request) -> CanonicalRequest {
        let url = NormalizedURL(request.url)
        var method = request.method
        // Methods are nearly always uppercase already; checking the bytes directly is cheaper than
        // `asciiUppercased`'s generic scan of the UTF-8 view.
        if method.withUTF8({ $0.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } }) {
            method = method.asciiUppercased
        }
        let body = request.body
        var bodyKind: BodyKind?
        if includesBody {
            bodyKind = body.isEmpty
                ? .raw
                : BodyKind.forContentType(
                    request.headers.first(named: "content-type"), additionalJSON: configuration.additionalJSONMediaTypes)
        }
        let headerFields = headerNames.isEmpty ? [] : request.headers.filter { field in
            headerNames.contains { field.name.equalsIgnoringASCIICase($0) }
        }

        var output: [UInt8] = method.withUTF8 { methodBytes in
            url.withUnsafeBytes { withoutQuery, query in
                var capacity = CanonicalLineWriter.lineOverhead &* 4 &+ methodBytes.count &+ withoutQuery.count
                    &+ (query?.count ?? 0) &* 3 &+ 1
                // Counted as they are written: a name configured twice writes its lines twice.
                for name in headerNames {
                    for field in headerFields where field.name.equalsIgnoringASCIICase(name) {
                        capacity &+= CanonicalLineWriter.lineOverhead &+ name.utf8.count &+ field.value.utf8.count
                    }
                }
                switch bodyKind {
                case .raw?: capacity &+= body.count
                // A canonical query or form body is at most 3n + 1 bytes for n input bytes: each byte
                // becomes at most an escape, and a piece without "=" gains one (the "&" that two such
                // pieces need pays for the second one's).
                case .form?: capacity &+= body.count &* 3 &+ 1
                // Room for the usual canonical JSON, which is not longer than its input, so appending it
                // after does not reallocate.
                case .json?: capacity &+= body.count &+ CanonicalLineWriter.lineOverhead
                case nil: break
                }
                return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    guard let base = buffer.baseAddress else { return }
                    var writer = CanonicalLineWriter(base: base)
                    writeLines(
                        to: &writer, method: UnsafeRawBufferPointer(methodBytes), url: url, withoutQuery: withoutQuery,
                        query: query, headerFields: headerFields, body: body, bodyKind: bodyKind)
                    assert(writer.count <= buffer.count, "canonical lines overran their precomputed bound")
                    initialized = writer.count
                }
            }
        }
        var notes: [CanonicalRequest.Note] = []
        if bodyKind == .json, !appendJSONBody(body, to: &output, notes: &notes) { bodyKind = .raw }
        return CanonicalRequest(bytes: output, url: url, method: method, bodyKind: bodyKind, notes: notes)
    }

    /// Writes every line but a JSON body.
    @inline(__always)
    private func writeLines(
        to writer: inout CanonicalLineWriter, method: UnsafeRawBufferPointer, url: NormalizedURL,
        withoutQuery: UnsafeRawBufferPointer, query: UnsafeRawBufferPointer?, headerFields: [HTTPField],
        body: [UInt8], bodyKind: BodyKind?
    ) {
        if includesMethod { writer.line(.method, method) }
        if includesURL { writer.line(.url, withoutQuery) }
        if includesPath { writer.line(.path, UnsafeRawBufferPointer(rebasing: withoutQuery[url.pathStart...])) }
        if includesQuery {
            if let query {
                FormEncoding.withCanonical(query, ignoring: ignoredParameters) { length, write in
                    writer.line(.query, valueLength: length, write)
                }
            } else {
                writer.line(.query, UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
        for name in headerNames {
            var nameCopy = name
            nameCopy.withUTF8 { nameBytes in
                for field in headerFields where field.name.equalsIgnoringASCIICase(name) {
                    var value = field.value.trimmingHTTPWhitespace
                    value.withUTF8 { writer.line(.headerPrefix, suffix: UnsafeRawBufferPointer(nameBytes), UnsafeRawBufferPointer($0)) }
                }
            }
        }
        body.withUnsafeBytes { bytes in
            switch bodyKind {
            case .raw?: writer.line(.rawBody, bytes)
            case .form?:
                FormEncoding.withCanonical(bytes, ignoring: ignoredParameters) { length, write in
                    writer.line(.formBody, valueLength: length, write)
                }
            case .json?, nil: break
            }
        }
    }

    /// Appends the `body:json` line, or the `body:raw` line and a note when the body does not parse;
    /// returns whether it parsed.
    private func appendJSONBody(_ body: [UInt8], to output: inout [UInt8], notes: inout [CanonicalRequest.Note]) -> Bool {
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
        guard let failure else { return true }
        output.removeSubrange(fieldStart...)
        notes.append(.init(message: "JSON body did not parse (\(failure)); matched as raw bytes"))
        body.withUnsafeBytes { Self.appendField(.rawBody, $0, to: &output) }
        return false
    }

    /// The key of `request`: the hash of its canonical form.
    public func key(for request: Request) -> RequestKey {
        RequestKey(canonicalBytes: canonicalize(request).bytes)
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
