/// A position inside a document, written like `$.tracks[3].request.url` in errors.
struct DocumentPath: Sendable, CustomStringConvertible {
    enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    static let root = DocumentPath()

    func appending(_ component: Component) -> DocumentPath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key):
                if key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !key.isEmpty {
                    text += "." + key
                } else {
                    text += "[" + key.debugDescription + "]"
                }
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
