extension String {
    /// ASCII case-insensitive equality, without making lowercased copies: header names are ASCII tokens.
    func equalsIgnoringCase(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // Letters differ from their other case by bit 0x20 only.
        return zip(lhs, rhs).allSatisfy { left, right in
            left == right || (left | 0x20 == right | 0x20 && (0x61...0x7A).contains(left | 0x20))
        }
    }
}
