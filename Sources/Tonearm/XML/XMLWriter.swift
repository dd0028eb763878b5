/// Writes XML trees as text: compactly (what ``XMLReader`` reads back as the same tree), or indented
/// as WireMock 2.35.1 shows a node an XPath selects to a nested matcher.
public enum XMLWriter {
    /// `document` as compact XML text (no declaration): reading it back gives `document` again.
    public static func compact(_ document: XMLDocument) -> String {
        var out = ""
        write(document.root, to: &out)
        return out
    }

    private static func write(_ element: XMLElement, to out: inout String) {
        openTag(element, to: &out)
        if element.children.isEmpty {
            out += "/>"
            return
        }
        out += ">"
        for child in element.children {
            switch child {
            case .element(let nested): write(nested, to: &out)
            case .text(let text): out += escapedText(text)
            case .comment(let text): out += "<!--\(text)-->"
            case .processingInstruction(let target, let data): out += data.isEmpty ? "<?\(target)?>" : "<?\(target) \(data)?>"
            }
        }
        out += "</\(element.name.qualifiedName)>"
    }

    private static func openTag(_ element: XMLElement, to out: inout String, sortedAttributes: Bool = false) {
        out += "<\(element.name.qualifiedName)"
        for declaration in element.namespaceDeclarations {
            out += declaration.prefix.map { " xmlns:\($0)=\"" } ?? " xmlns=\""
            out += escapedAttribute(declaration.uri) + "\""
        }
        let attributes = sortedAttributes ? element.attributes.sorted { $0.name.qualifiedName < $1.name.qualifiedName } : element.attributes
        for attribute in attributes {
            out += " \(attribute.name.qualifiedName)=\"\(escapedAttribute(attribute.value))\""
        }
    }

    /// An element as WireMock 2.35.1 hands it to a matcher nested in `matchesXPath`: indented by two
    /// spaces, an element holding only text on one line, attributes sorted by name, whitespace-only
    /// text left out, comments kept, and a final line feed.
    public static func indented(_ element: XMLElement) -> String {
        var out = ""
        indented(element, depth: 0, to: &out)
        return out
    }

    private static func indented(_ element: XMLElement, depth: Int, to out: inout String) {
        let pad = String(repeating: " ", count: depth * 2)
        out += pad
        openTag(element, to: &out, sortedAttributes: true)
        let children = element.children.filter { child in
            if case .text(let text) = child { return !XMLComparedElement.trimmed(text).isEmpty }
            return true
        }
        if children.isEmpty {
            out += "/>\n"
            return
        }
        if children.count == 1, case .text(let text) = children[0] {
            out += ">\(escapedText(text))</\(element.name.qualifiedName)>\n"
            return
        }
        out += ">\n"
        for child in children {
            switch child {
            case .element(let nested): indented(nested, depth: depth + 1, to: &out)
            case .text(let text): out += pad + "  " + escapedText(XMLComparedElement.trimmed(text)) + "\n"
            case .comment(let text): out += pad + "  <!--\(text)-->\n"
            case .processingInstruction(let target, let data): out += pad + "  " + (data.isEmpty ? "<?\(target)?>" : "<?\(target) \(data)?>") + "\n"
            }
        }
        out += pad + "</\(element.name.qualifiedName)>\n"
    }

    static func escapedText(_ text: String) -> String { escaped(text, inAttribute: false) }

    static func escapedAttribute(_ text: String) -> String { escaped(text, inAttribute: true) }

    /// `&`, `<`, `>` and a carriage return as references; in an attribute also `"`, tab and line feed,
    /// which attribute-value normalisation would otherwise turn into spaces.
    private static func escaped(_ text: String, inAttribute: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\"" where inAttribute: out += "&quot;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n" where inAttribute: out += "&#10;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
