import Foundation

/// Structural equality of two `JSONSerialization` results — the deep `NSDictionary`/`NSArray` equality
/// that Vinyl, DVR and Replay rely on, written out because on Linux the parser returns Swift collections
/// that do not bridge to `NSObject`.
enum JSONStructure {
    static func equal(_ left: Any, _ right: Any) -> Bool {
        switch (left, right) {
        case (let left as [String: Any], let right as [String: Any]):
            guard left.count == right.count else { return false }
            for (key, value) in left {
                guard let other = right[key], equal(value, other) else { return false }
            }
            return true
        case (let left as [Any], let right as [Any]):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (let left as String, let right as String):
            return left == right
        case (is NSNull, is NSNull):
            return true
        case (let left as Bool, let right as Bool):
            return left == right
        case (let left as Int, let right as Int):
            return left == right
        case (let left as Double, let right as Double):
            return left == right
        case (let left as NSNumber, let right as NSNumber):
            return left == right
        default:
            return false
        }
    }
}
