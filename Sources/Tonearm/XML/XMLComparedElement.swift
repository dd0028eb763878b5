/// A document normalised for comparison: comments gone, text trimmed and merged, whitespace-only text
/// dropped, placeholders found (in the expected document).
struct XMLComparedElement: Sendable {
    struct Attribute: Sendable {
        var name: XMLName
        var value: String
        var placeholder: XMLPlaceholder?
    }

    indirect enum Child: Sendable {
        case element(XMLComparedElement)
        case text(String, XMLPlaceholder?)
        case processingInstruction(target: String, data: String)
    }

    var name: XMLName
    var attributes: [Attribute]
    var children: [Child]

    /// `element` normalised; `placeholder` finds the placeholder a text or value is, if any.
    init(_ element: XMLElement, placeholder: (String) -> XMLPlaceholder?) {
        name = element.name
        attributes = element.attributes.map { attribute in
            let value = Self.trimmed(attribute.value)
            return Attribute(name: attribute.name, value: value, placeholder: placeholder(value))
        }
        var children: [Child] = []
        var pending = ""
        func flush() {
            let text = Self.trimmed(pending)
            pending = ""
            if !text.isEmpty { children.append(.text(text, placeholder(text))) }
        }
        for child in element.children {
            switch child {
            case .text(let text): pending += text
            case .comment: break
            case .element(let nested):
                flush()
                children.append(.element(XMLComparedElement(nested, placeholder: placeholder)))
            case .processingInstruction(let target, let data):
                flush()
                children.append(.processingInstruction(target: target, data: data))
            }
        }
        flush()
        self.children = children
    }

    /// Java's `String.trim()`: every character up to U+0020 at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }), let last = scalars.lastIndex(where: { $0.value > 0x20 }) else {
            return ""
        }
        return String(scalars[first...last])
    }
}
