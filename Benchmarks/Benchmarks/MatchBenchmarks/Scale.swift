/// The track counts issue 3 measures at.
enum Scale: Int, CaseIterable {
    case thousand = 1_000
    case tenThousand = 10_000
    case hundredThousand = 100_000

    /// `1k`, `10k`, `100k`: the label in benchmark names.
    var label: String { "\(rawValue / 1_000)k" }
}
