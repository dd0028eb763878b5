/// Reads XML from bytes into an ``XMLDocument``: UTF-8 (a byte-order mark is skipped), namespaces
/// resolved, the five predefined entities and character references replaced.
///
/// Safe on untrusted input by construction: a document with a DTD (`<!DOCTYPE`) is refused, so no
/// entity is ever declared, expanded (no "billion laughs") or fetched (no XXE); a reference to any
/// entity other than the predefined five is an error. Nesting is bounded (``maximumDepth``) and so is
/// the input (``maximumBytes``); the reader does not recurse. Every error is a value naming its line
/// and column.
public struct XMLReader: Sendable {
    /// The deepest element nesting read (deeper is an error).
    public var maximumDepth: Int
    /// The largest input read, in bytes.
    public var maximumBytes: Int

    /// A reader with the default bounds: 256 levels, 16 MiB.
    public init(maximumDepth: Int = 256, maximumBytes: Int = 16 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumBytes = maximumBytes
    }

    /// Reads `bytes` as one XML document.
    public func read(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLDocument {
        guard bytes.count <= maximumBytes else {
            throw XMLSyntaxError(at: 0, in: [], "a document of at most \(maximumBytes) bytes (this one has \(bytes.count))")
        }
        var parser = XMLParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.document()
    }

    /// Reads `text` as one XML document.
    public func read(_ text: String) throws(XMLSyntaxError) -> XMLDocument {
        try read(Array(text.utf8))
    }
}

/// The reader's cursor over the bytes.
private struct XMLParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var position = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// An element being read, with the namespace scope it opened.
    private struct OpenElement {
        var prefix: String?
        var localName: String
        var rawAttributes: [(name: String, value: String, offset: Int)]
        var declarations: [XMLNamespaceDeclaration]
        var children: [XMLNode]
        var pendingText: String
        /// The scope its content sees (with its own declarations), and the one around it.
        var scope: [String: String]
        var outerScope: [String: String]
    }

    func error(_ message: String, at offset: Int? = nil) -> XMLSyntaxError {
        XMLSyntaxError(at: offset ?? position, in: bytes, message)
    }

    var atEnd: Bool { position >= bytes.count }

    func peek(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = text.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] { return false }
        return true
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    mutating func name(_ what: String) throws(XMLSyntaxError) -> String {
        let start = position
        guard position < bytes.count, Self.isNameStart(bytes[position]) else { throw error("expected \(what)") }
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(XMLSyntaxError) {
        guard position < bytes.count, bytes[position] == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// Skips to just past `terminator`, returning the bytes before it.
    mutating func until(_ terminator: StaticString, _ what: String) throws(XMLSyntaxError) -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count {
            if peek(terminator) {
                let content = bytes[start..<position]
                position += terminator.utf8CodeUnitCount
                return content
            }
            position += 1
        }
        throw error("expected \(what) before the end of the document", at: start)
    }

    /// Comments, processing instructions and whitespace before or after the root element; refuses a DTD.
    mutating func skipMisc() throws(XMLSyntaxError) {
        while true {
            skipWhitespace()
            if peek("<!--") {
                position += 4
                _ = try until("-->", "'-->'")
            } else if peek("<!DOCTYPE") || peek("<!doctype") {
                throw error("no DOCTYPE (a DTD is refused: entities are never declared, expanded or fetched)")
            } else if peek("<?") {
                position += 2
                _ = try until("?>", "'?>'")
            } else {
                return
            }
        }
    }

    mutating func document() throws(XMLSyntaxError) -> XMLDocument {
        if peek("\u{FEFF}") { position += 3 }
        try skipMisc()
        guard peek("<"), position + 1 < bytes.count, Self.isNameStart(bytes[position + 1]) else {
            throw error(atEnd ? "a root element, found the end of the document" : "a root element ('<' and a name)")
        }
        let root = try element()
        try skipMisc()
        guard atEnd else { throw error("nothing after the root element but comments, processing instructions and whitespace") }
        return XMLDocument(root: root)
    }

    /// Reads the element at `position` and everything in it, with an explicit stack.
    mutating func element() throws(XMLSyntaxError) -> XMLElement {
        var stack: [OpenElement] = []
        var scope: [String: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]
        while true {
            // At '<' of a start tag.
            let tagOffset = position
            position += 1
            let qualified = try name("an element name")
            var attributes: [(name: String, value: String, offset: Int)] = []
            var declarations: [XMLNamespaceDeclaration] = []
            var seenNames = Set<String>()
            var selfClosing = false
            while true {
                let hadSpace = position < bytes.count && Self.isWhitespace(bytes[position])
                skipWhitespace()
                if peek("/>") {
                    position += 2
                    selfClosing = true
                    break
                }
                if peek(">") {
                    position += 1
                    break
                }
                guard hadSpace else { throw error(atEnd ? "'>' before the end of the document" : "whitespace, '>' or '/>'") }
                let attributeOffset = position
                let attributeName = try name("an attribute name, '>' or '/>'")
                skipWhitespace()
                try expect(UInt8(ascii: "="), "'=' after attribute \(attributeName)")
                skipWhitespace()
                let value = try attributeValue()
                // A set, so an element with very many attributes costs linear time.
                guard seenNames.insert(attributeName).inserted else {
                    throw error("attribute \(attributeName) only once", at: attributeOffset)
                }
                if attributeName == "xmlns" {
                    declarations.append(XMLNamespaceDeclaration(prefix: nil, uri: value))
                } else if attributeName.hasPrefix("xmlns:") {
                    declarations.append(XMLNamespaceDeclaration(prefix: String(attributeName.dropFirst(6)), uri: value))
                } else {
                    attributes.append((attributeName, value, attributeOffset))
                }
            }
            guard stack.count < maximumDepth else { throw error("elements nested at most \(maximumDepth) deep", at: tagOffset) }
            let (prefix, localName) = Self.split(qualified)
            var inner = scope
            for declaration in declarations { inner[declaration.prefix ?? ""] = declaration.uri }
            let open = OpenElement(
                prefix: prefix, localName: localName, rawAttributes: attributes, declarations: declarations, children: [],
                pendingText: "", scope: inner, outerScope: scope)
            if selfClosing {
                let finished = try close(open)
                if stack.isEmpty { return finished }
                stack[stack.count - 1].children.append(.element(finished))
            } else {
                stack.append(open)
                scope = inner
            }
            // Content until the next start tag, or end tags that close elements.
            while !stack.isEmpty {
                if atEnd { throw error("'</\(Self.qualified(stack[stack.count - 1]))>' before the end of the document") }
                if peek("</") {
                    let endOffset = position
                    position += 2
                    let endName = try name("an element name after '</'")
                    skipWhitespace()
                    try expect(UInt8(ascii: ">"), "'>'")
                    let finished = stack.removeLast()
                    guard endName == Self.qualified(finished) else {
                        throw error("'</\(Self.qualified(finished))>', found '</\(endName)>'", at: endOffset)
                    }
                    let element = try close(finished)
                    scope = finished.outerScope
                    if stack.isEmpty { return element }
                    stack[stack.count - 1].children.append(.element(element))
                } else if peek("<!--") {
                    position += 4
                    let text = try until("-->", "'-->'")
                    Self.flushText(&stack[stack.count - 1])
                    stack[stack.count - 1].children.append(.comment(Self.text(text)))
                } else if peek("<![CDATA[") {
                    position += 9
                    let text = try until("]]>", "']]>'")
                    stack[stack.count - 1].pendingText += Self.text(text)
                } else if peek("<!") {
                    throw error("no markup declaration inside an element (a DTD is refused)")
                } else if peek("<?") {
                    position += 2
                    let target = try name("a processing instruction target")
                    let data = try until("?>", "'?>'")
                    Self.flushText(&stack[stack.count - 1])
                    let trimmed = data.drop(while: Self.isWhitespace)
                    stack[stack.count - 1].children.append(.processingInstruction(target: target, data: Self.text(trimmed)))
                } else if peek("<") {
                    Self.flushText(&stack[stack.count - 1])
                    break
                } else {
                    stack[stack.count - 1].pendingText += try characterData()
                }
            }
        }
    }

    static func split(_ qualified: String) -> (String?, String) {
        guard let colon = qualified.firstIndex(of: ":") else { return (nil, qualified) }
        return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
    }

    private static func qualified(_ open: OpenElement) -> String {
        open.prefix.map { "\($0):\(open.localName)" } ?? open.localName
    }

    private static func flushText(_ open: inout OpenElement) {
        guard !open.pendingText.isEmpty else { return }
        open.children.append(.text(open.pendingText))
        open.pendingText = ""
    }

    /// The finished element, its names resolved in the scope its own declarations opened.
    private func close(_ open: OpenElement) throws(XMLSyntaxError) -> XMLElement {
        var open = open
        Self.flushText(&open)
        let scope = open.scope
        let namespace = scope[open.prefix ?? ""].flatMap { $0.isEmpty ? nil : $0 }
        var attributes: [XMLAttribute] = []
        var expandedNames = Set<String>()
        for raw in open.rawAttributes {
            let (prefix, localName) = Self.split(raw.name)
            let attributeNamespace = prefix.flatMap { scope[$0] }
            if let attributeNamespace, !expandedNames.insert("{\(attributeNamespace)}\(localName)").inserted {
                throw error("attribute {\(attributeNamespace)}\(localName) only once", at: raw.offset)
            }
            attributes.append(XMLAttribute(XMLName(prefix: prefix, localName: localName, namespace: attributeNamespace), raw.value))
        }
        return XMLElement(
            XMLName(prefix: open.prefix, localName: open.localName, namespace: namespace), attributes: attributes,
            namespaceDeclarations: open.declarations, children: open.children)
    }

    /// Text with line ends read as line feeds.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(0x0D) else { return String(decoding: bytes, as: UTF8.self) }
        var normalised: [UInt8] = []
        normalised.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0D {
                normalised.append(0x0A)
                if index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
            } else {
                normalised.append(byte)
            }
            index += 1
        }
        return String(decoding: normalised, as: UTF8.self)
    }

    /// Character data up to the next '<', references replaced.
    mutating func characterData() throws(XMLSyntaxError) -> String {
        var out: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                out.append(contentsOf: try reference())
            } else if byte == 0x0D {
                out.append(0x0A)
                position += 1
                if position < bytes.count, bytes[position] == 0x0A { position += 1 }
            } else {
                if byte == UInt8(ascii: ">"), position >= 2, bytes[position - 1] == UInt8(ascii: "]"), bytes[position - 2] == UInt8(ascii: "]") {
                    throw error("no ']]>' outside a CDATA section")
                }
                out.append(byte)
                position += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A quoted attribute value, references replaced and whitespace characters read as spaces.
    mutating func attributeValue() throws(XMLSyntaxError) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw error("a quoted attribute value")
        }
        let quote = bytes[position]
        let start = position
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("the closing quote of the attribute value", at: start) }
            let byte = bytes[position]
            if byte == quote {
                position += 1
                return String(decoding: out, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw error("no '<' in an attribute value") }
            if byte == UInt8(ascii: "&") {
                out.append(contentsOf: try reference())
            } else if byte == 0x0D {
                out.append(0x20)
                position += 1
                if position < bytes.count, bytes[position] == 0x0A { position += 1 }
            } else {
                out.append(Self.isWhitespace(byte) ? 0x20 : byte)
                position += 1
            }
        }
    }

    /// `&name;` (one of the five predefined), `&#N;` or `&#xN;`: the UTF-8 bytes it stands for.
    mutating func reference() throws(XMLSyntaxError) -> [UInt8] {
        let start = position
        position += 1
        if position < bytes.count, bytes[position] == UInt8(ascii: "#") {
            position += 1
            var radix: UInt32 = 10
            if position < bytes.count, bytes[position] == UInt8(ascii: "x") {
                radix = 16
                position += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while position < bytes.count, bytes[position] != UInt8(ascii: ";") {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("a \(radix == 16 ? "hexadecimal" : "decimal") digit or ';' in a character reference")
                }
                value = value * radix + digit
                digits += 1
                guard value <= 0x10FFFF else { throw error("a character reference to a Unicode scalar", at: start) }
                position += 1
            }
            guard digits > 0, position < bytes.count else { throw error("a character reference such as &#38; or &#x26;", at: start) }
            position += 1
            guard let scalar = Unicode.Scalar(value), value != 0 else { throw error("a character reference to a Unicode scalar", at: start) }
            return Array(String(Character(scalar)).utf8)
        }
        let entity = try name("an entity name after '&'")
        try expect(UInt8(ascii: ";"), "';' after &\(entity)")
        switch entity {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "apos": return [UInt8(ascii: "'")]
        case "quot": return [UInt8(ascii: "\"")]
        default: throw error("one of the predefined entities (lt, gt, amp, apos, quot), found &\(entity); (no DTD declares others)", at: start)
        }
    }
}
