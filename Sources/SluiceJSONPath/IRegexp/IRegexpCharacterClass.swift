import SluiceCore

/// A set of code points: what `.`, a literal, an escape or a bracket expression matches.
struct IRegexpCharacterClass: Sendable {
    /// Whether the set is the complement of what the items list (`[^...]`).
    var negated = false
    /// Code point ranges in the set.
    var ranges: [ClosedRange<UInt32>] = []
    /// General categories in the set (`\p{...}`), as a mask of ``IRegexpCharacterClass/bit(of:)``.
    var categories: UInt32 = 0
    /// For each `\P{...}`: the categories it leaves out.
    var complementedCategories: [UInt32] = []

    /// One code point.
    init(_ scalar: Unicode.Scalar) {
        ranges = [scalar.value...scalar.value]
    }

    /// The empty set, to be filled.
    init() {}

    /// `.`: every code point but line feed and carriage return (RFC 9485 section 5.3).
    static let dot: IRegexpCharacterClass = {
        var dot = IRegexpCharacterClass()
        dot.negated = true
        dot.ranges = [0x0A...0x0A, 0x0D...0x0D]
        return dot
    }()

    /// The code point, when the set is exactly one code point.
    var singleScalar: UInt32? {
        guard !negated, categories == 0, complementedCategories.isEmpty, ranges.count == 1,
            ranges[0].lowerBound == ranges[0].upperBound
        else { return nil }
        return ranges[0].lowerBound
    }

    /// Whether `scalar` is in the set.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        negated != listed(scalar)
    }

    private func listed(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        for range in ranges where range.contains(value) { return true }
        guard categories != 0 || !complementedCategories.isEmpty else { return false }
        let category = IRegexpCharacterClass.bit(of: scalar.properties.generalCategory)
        if categories & category != 0 { return true }
        return complementedCategories.contains { $0 & category == 0 }
    }

    /// The categories a `\p{NAME}` names (RFC 9485's `IsCategory`), or `nil` for another name.
    static func categories(named name: String) -> UInt32? {
        let groups: [String: [String]] = [
            "L": ["Lu", "Ll", "Lt", "Lm", "Lo"], "M": ["Mn", "Mc", "Me"], "N": ["Nd", "Nl", "No"],
            "P": ["Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"], "Z": ["Zs", "Zl", "Zp"],
            "S": ["Sm", "Sc", "Sk", "So"], "C": ["Cc", "Cf", "Cs", "Co", "Cn"],
        ]
        let codes = groups[name] ?? [name]
        var mask: UInt32 = 0
        for code in codes {
            // RFC 9485's grammar has no `Cs`: surrogates are not code points of a string.
            guard code != "Cs" || codes.count > 1, let index = abbreviations.firstIndex(of: code) else { return nil }
            mask |= 1 << UInt32(index)
        }
        return mask
    }

    /// The Unicode abbreviations of the general categories, in the order of ``bit(of:)``.
    private static let abbreviations = [
        "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe",
        "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn",
    ]

    /// A category's bit in a mask, in the order of ``abbreviations``.
    static func bit(of category: Unicode.GeneralCategory) -> UInt32 {
        let index: UInt32 =
            switch category {
            case .uppercaseLetter: 0
            case .lowercaseLetter: 1
            case .titlecaseLetter: 2
            case .modifierLetter: 3
            case .otherLetter: 4
            case .nonspacingMark: 5
            case .spacingMark: 6
            case .enclosingMark: 7
            case .decimalNumber: 8
            case .letterNumber: 9
            case .otherNumber: 10
            case .connectorPunctuation: 11
            case .dashPunctuation: 12
            case .openPunctuation: 13
            case .closePunctuation: 14
            case .initialPunctuation: 15
            case .finalPunctuation: 16
            case .otherPunctuation: 17
            case .mathSymbol: 18
            case .currencySymbol: 19
            case .modifierSymbol: 20
            case .otherSymbol: 21
            case .spaceSeparator: 22
            case .lineSeparator: 23
            case .paragraphSeparator: 24
            case .control: 25
            case .format: 26
            case .surrogate: 27
            case .privateUse: 28
            case .unassigned: 29
            @unknown default: 29
            }
        return 1 << index
    }
}
