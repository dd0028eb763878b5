/// Turns requests into their ``CanonicalRequest`` and ``RequestKey`` under one ``MatchingConfiguration``.
///
/// This is the hot path of every match: it works on UTF-8 bytes and builds one output buffer. Recorded
/// tracks and live requests must go through the same canonicalizer for their keys to be comparable.
public struct RequestCanonicalizer: Sendable, Hashable {
    /// Everything derived from the configuration, in one immutable object: a canonicalizer is copied
    /// wherever an engine or index hands it on, and copying one reference costs one retain where the
    /// fields themselves cost one per array, set and string inside them.
    private let plan: Plan

    /// The configuration the keys are built under.
    public var configuration: MatchingConfiguration { plan.configuration }

    private var includesBody: Bool { plan.includesBody }
    private var json: JSONCanonicalizer { plan.json }

    /// Creates a canonicalizer for `configuration`.
    public init(_ configuration: MatchingConfiguration = .default) {
        plan = Plan(configuration)
    }

    /// Canonicalizers are equal when their configurations are: everything else is derived from it.
    public static func == (lhs: RequestCanonicalizer, rhs: RequestCanonicalizer) -> Bool {
        lhs.plan === rhs.plan || lhs.plan.configuration == rhs.plan.configuration
    }

    /// Hashes the configuration, which decides everything else.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(plan.configuration)
    }

    /// The canonical form of `request`.
    ///
    /// Every line but a JSON body has a size bound known before writing (a canonical query or form body is
    /// at most three times its input), so those lines are written through a pointer into an array made at
    /// that capacity; a JSON body, whose canonical length is not bounded by its input, is appended after.
    public func canonicalize(_ request: Request) -> CanonicalRequest {
        let url = NormalizedURL(request.url)
        var method = Self.canonicalMethod(request.method)
        var bodyKind = self.bodyKind(of: request)
        let headerFields = self.headerFields(of: request)
        let plan = self.plan, body = request.body
        var output: [UInt8] = method.withUTF8 { methodBytes in
            url.withUnsafeBytes { withoutQuery, query in
                let capacity = plan.lines.lineCapacity(
                    method: methodBytes.count, withoutQuery: withoutQuery.count, query: query?.count,
                    headerFields: headerFields, body: body, bodyKind: bodyKind)
                return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    initialized = plan.lines.writeLines(
                        into: buffer, method: UnsafeRawBufferPointer(methodBytes), withoutQuery: withoutQuery,
                        pathStart: url.pathStart, query: query, headerFields: headerFields, body: body,
                        bodyKind: bodyKind)
                }
            }
        }
        var notes: [CanonicalRequest.Note] = []
        if bodyKind == .json, !appendJSONBody(request.body, to: &output, notes: &notes) { bodyKind = .raw }
        return CanonicalRequest(bytes: output, url: url, method: method, bodyKind: bodyKind, notes: notes)
    }

    /// The key of `request`: the hash of its canonical form.
    ///
    /// Without a JSON body, the URL is normalised and the lines are written in scratch memory (on the
    /// stack when small) and hashed there, without making a ``CanonicalRequest``: a GET key allocates
    /// nothing. A JSON body goes through ``canonicalize(_:)``, whose output grows as the JSON is written.
    public func key(for request: Request) -> RequestKey {
        let bodyKind = self.bodyKind(of: request)
        if bodyKind == .json { return RequestKey(canonicalBytes: canonicalize(request).bytes) }
        return linesKey(for: request, bodyKind: bodyKind)
    }

    /// Whether the key of `request` is hashed from its canonical form (a JSON body), rather than from
    /// lines written in scratch memory: then a caller that may need both should canonicalise first.
    func keyNeedsCanonicalForm(_ request: Request) -> Bool {
        bodyKind(of: request) == .json
    }

    /// The key of a request without a JSON body to canonicalise, hashed from lines written in scratch memory.
    @inline(__always)
    private func linesKey(for request: Request, bodyKind: BodyKind?) -> RequestKey {
        var method = Self.canonicalMethod(request.method)
        var target = request.url
        let headerFields = self.headerFields(of: request)
        let plan = self.plan, body = request.body
        return method.withUTF8 { methodBytes in
            target.withUTF8 { input in
                NormalizedURL.normalize(utf8: input) { urlCapacity, writeURL in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(urlCapacity, 1)) { urlBuffer in
                        let layout = writeURL(urlBuffer)
                        let url = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: urlBuffer[0..<layout.count]))
                        let withoutQuery = UnsafeRawBufferPointer(rebasing: url[0..<layout.pathEnd])
                        let query = layout.pathEnd < layout.count ? UnsafeRawBufferPointer(rebasing: url[(layout.pathEnd &+ 1)...]) : nil
                        let capacity = plan.lines.lineCapacity(
                            method: methodBytes.count, withoutQuery: withoutQuery.count, query: query?.count,
                            headerFields: headerFields, body: body, bodyKind: bodyKind)
                        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                            let count = plan.lines.writeLines(
                                into: buffer, method: UnsafeRawBufferPointer(methodBytes), withoutQuery: withoutQuery,
                                pathStart: layout.pathStart, query: query, headerFields: headerFields, body: body,
                                bodyKind: bodyKind)
                            return RequestKey(canonicalBytes: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
                        }
                    }
                }
            }
        }
    }

    /// The method with ASCII letters uppercased.
    @inline(__always)
    private static func canonicalMethod(_ method: String) -> String {
        var method = method
        // Methods are nearly always uppercase already; checking the bytes directly is cheaper than
        // `asciiUppercased`'s generic scan of the UTF-8 view.
        if method.withUTF8({ $0.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } }) {
            method = method.asciiUppercased
        }
        return method
    }

    /// How the body is read, when the body is in the key.
    @inline(__always)
    private func bodyKind(of request: Request) -> BodyKind? {
        guard includesBody else { return nil }
        if request.body.isEmpty { return .raw }
        return BodyKind.forContentType(
            request.headers.first(named: "content-type"), additionalJSON: configuration.additionalJSONMediaTypes)
    }

    /// The header fields whose names are in the key.
    @inline(__always)
    private func headerFields(of request: Request) -> [HeaderField] {
        let names = plan.lines.headerNames
        return names.isEmpty ? [] : request.headers.filter { field in
            names.contains { field.name.equalsIgnoringASCIICase($0) }
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

extension RequestCanonicalizer {
    /// A canonicalizer's configuration and what it decides, made once.
    final class Plan: Sendable {
        let configuration: MatchingConfiguration
        let lines: Lines
        let includesBody: Bool
        let json: JSONCanonicalizer

        init(_ configuration: MatchingConfiguration) {
            self.configuration = configuration
            let attributes = configuration.attributes
            lines = Lines(
                includesMethod: attributes.contains(.method), includesURL: attributes.contains(.url),
                includesPath: attributes.contains(.path) && !attributes.contains(.url),
                includesQuery: attributes.contains(.query), headerNames: configuration.headerNames,
                ignoredParameters: Set(configuration.ignoredQueryParameters.map(FormEncoding.canonicalName)))
            includesBody = attributes.contains(.body)
            json = JSONCanonicalizer(ignoring: configuration.ignoredJSONFields)
        }
    }

    /// What decides the lines other than a JSON body, apart from the rest of the canonicalizer, so that
    /// key building's closures capture two references instead of copying the whole canonicalizer.
    struct Lines: Sendable, Hashable {
        let includesMethod: Bool
        let includesURL: Bool
        let includesPath: Bool
        let includesQuery: Bool
        let headerNames: [String]
        let ignoredParameters: Set<String>

        /// The most bytes ``writeLines(to:method:withoutQuery:pathStart:query:headerFields:body:bodyKind:)`` writes.
        @inline(__always)
        func lineCapacity(
            method: Int, withoutQuery: Int, query: Int?, headerFields: [HeaderField], body: [UInt8], bodyKind: BodyKind?
        ) -> Int {
            // A canonical query or form body is at most 3n + 1 bytes for n input bytes: each byte becomes at
            // most an escape, and a piece without "=" gains one (the "&" that two such pieces need pays for
            // the second one's).
            var capacity = CanonicalLineWriter.lineOverhead &* 4 &+ method &+ withoutQuery &+ (query ?? 0) &* 3 &+ 1
            // Counted as they are written: a name configured twice writes its lines twice.
            for name in headerNames {
                for field in headerFields where field.name.equalsIgnoringASCIICase(name) {
                    capacity &+= CanonicalLineWriter.lineOverhead &+ name.utf8.count &+ field.value.utf8.count
                }
            }
            switch bodyKind?.storage {
            case .raw?: capacity &+= body.count
            case .form?: capacity &+= body.count &* 3 &+ 1
            // Room for the usual canonical JSON, which is not longer than its input, so appending it after
            // does not reallocate.
            case .json?: capacity &+= body.count &+ CanonicalLineWriter.lineOverhead
            case nil: break
            }
            return capacity
        }

        /// Writes every line but a JSON body into `buffer`, which must hold ``lineCapacity(method:withoutQuery:query:headerFields:body:bodyKind:)``
        /// bytes, and returns how many were written.
        @inline(__always)
        func writeLines(
            into buffer: UnsafeMutableBufferPointer<UInt8>, method: UnsafeRawBufferPointer,
            withoutQuery: UnsafeRawBufferPointer, pathStart: Int, query: UnsafeRawBufferPointer?,
            headerFields: [HeaderField], body: [UInt8], bodyKind: BodyKind?
        ) -> Int {
            guard let base = buffer.baseAddress else { return 0 }
            var writer = CanonicalLineWriter(base: base)
            writeLines(
                to: &writer, method: method, withoutQuery: withoutQuery, pathStart: pathStart, query: query,
                headerFields: headerFields, body: body, bodyKind: bodyKind)
            assert(writer.count <= buffer.count, "canonical lines overran their precomputed bound")
            return writer.count
        }

        @inline(__always)
        private func writeLines(
            to writer: inout CanonicalLineWriter, method: UnsafeRawBufferPointer, withoutQuery: UnsafeRawBufferPointer,
            pathStart: Int, query: UnsafeRawBufferPointer?, headerFields: [HeaderField], body: [UInt8], bodyKind: BodyKind?
        ) {
            if includesMethod { writer.line(.method, method) }
            if includesURL { writer.line(.url, withoutQuery) }
            if includesPath { writer.line(.path, UnsafeRawBufferPointer(rebasing: withoutQuery[pathStart...])) }
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
                switch bodyKind?.storage {
                case .raw?: writer.line(.rawBody, bytes)
                case .form?:
                    FormEncoding.withCanonical(bytes, ignoring: ignoredParameters) { length, write in
                        writer.line(.formBody, valueLength: length, write)
                    }
                case .json?, nil: break
                }
            }
        }
    }
}
