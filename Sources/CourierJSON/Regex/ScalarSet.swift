/// A set of Unicode scalars: a character class, `.`, or an escape like `\d` or `\p{L}`.
///
/// Membership is decided on scalar values. ``CompiledScalarSet`` adds a bitmap for ASCII and
/// case-insensitivity, which is what the matcher tests against.
struct ScalarSet {
    enum Item {
        case range(UInt32, UInt32)
        /// A built-in set, or its complement (`\D`, `\P{L}`).
        case builtin(BuiltinSet, negated: Bool)
    }

    var items: [Item]
    var negated = false

    static let nothing = ScalarSet(items: [])
    static let anything = ScalarSet(items: [], negated: true)
    /// ECMA-262 `.`: anything but the four line terminators.
    static let dot = ScalarSet(items: [.builtin(.lineTerminator, negated: false)], negated: true)

    static func single(_ scalar: UInt32) -> ScalarSet {
        ScalarSet(items: [.range(scalar, scalar)])
    }

    func contains(_ scalar: UInt32) -> Bool {
        itemsContain(scalar) != negated
    }

    /// Whether one of the items holds `scalar`, before `negated` applies.
    func itemsContain(_ scalar: UInt32) -> Bool {
        var found = false
        for item in items {
            switch item {
            case .range(let low, let high):
                found = low <= scalar && scalar <= high
            case .builtin(let set, let negated):
                found = set.contains(scalar) != negated
            }
            if found { break }
        }
        return found
    }
}

/// The sets escapes and `\p{…}` name. `\d`, `\w` are ASCII-only and `\s` is ECMA-262's list.
enum BuiltinSet {
    case digit
    case word
    case space
    case lineTerminator
    case category(Set<Unicode.GeneralCategory>)
    case alphabetic
    case whiteSpace
    case uppercase
    case lowercase
    case ascii
    case any
    case assigned

    func contains(_ value: UInt32) -> Bool {
        switch self {
        case .digit: return value >= 0x30 && value <= 0x39
        case .word:
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x61 && value <= 0x7A) || value == 0x5F
        case .space:
            switch value {
            case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
                 0x3000, 0xFEFF:
                return true
            default:
                return false
            }
        case .lineTerminator:
            return value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029
        case .ascii: return value < 0x80
        case .any: return true
        default:
            guard let scalar = Unicode.Scalar(value) else { return false }
            let properties = scalar.properties
            switch self {
            case .category(let categories): return categories.contains(properties.generalCategory)
            case .alphabetic: return properties.isAlphabetic
            case .whiteSpace: return properties.isWhitespace
            case .uppercase: return properties.isUppercase
            case .lowercase: return properties.isLowercase
            case .assigned: return properties.generalCategory != .unassigned
            default: return false
            }
        }
    }

    /// The set `\p{name}` names: a general category (`L`, `Letter`, `Lu`, `General_Category=Lu`)
    /// or one of a few binary properties. Names compare loosely (case, `_`, `-` and spaces
    /// ignored). Scripts are not supported.
    static func property(named name: String) -> BuiltinSet? {
        var key = name
        if let equals = key.firstIndex(of: "=") {
            let property = Self.loose(String(key[..<equals]))
            guard property == "generalcategory" || property == "gc" else { return nil }
            key = String(key[key.index(after: equals)...])
        }
        let loose = Self.loose(key)
        if let categories = Self.categories[loose] { return .category(categories) }
        switch loose {
        case "alphabetic", "alpha": return .alphabetic
        case "whitespace", "space", "wspace": return .whiteSpace
        case "uppercase", "upper": return .uppercase
        case "lowercase", "lower": return .lowercase
        case "ascii": return .ascii
        case "any": return .any
        case "assigned": return .assigned
        case "digit": return .category([.decimalNumber])
        default: return nil
        }
    }

    private static func loose(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    private static let categories: [String: Set<Unicode.GeneralCategory>] = {
        let groups: [(short: String, long: String, members: [Unicode.GeneralCategory])] = [
            ("lu", "uppercaseletter", [.uppercaseLetter]), ("ll", "lowercaseletter", [.lowercaseLetter]),
            ("lt", "titlecaseletter", [.titlecaseLetter]), ("lm", "modifierletter", [.modifierLetter]),
            ("lo", "otherletter", [.otherLetter]),
            ("lc", "casedletter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            ("l", "letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            ("mn", "nonspacingmark", [.nonspacingMark]), ("mc", "spacingmark", [.spacingMark]),
            ("me", "enclosingmark", [.enclosingMark]),
            ("m", "mark", [.nonspacingMark, .spacingMark, .enclosingMark]),
            ("nd", "decimalnumber", [.decimalNumber]), ("nl", "letternumber", [.letterNumber]),
            ("no", "othernumber", [.otherNumber]),
            ("n", "number", [.decimalNumber, .letterNumber, .otherNumber]),
            ("pc", "connectorpunctuation", [.connectorPunctuation]), ("pd", "dashpunctuation", [.dashPunctuation]),
            ("ps", "openpunctuation", [.openPunctuation]), ("pe", "closepunctuation", [.closePunctuation]),
            ("pi", "initialpunctuation", [.initialPunctuation]), ("pf", "finalpunctuation", [.finalPunctuation]),
            ("po", "otherpunctuation", [.otherPunctuation]),
            ("p", "punctuation", [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                  .initialPunctuation, .finalPunctuation, .otherPunctuation]),
            ("sm", "mathsymbol", [.mathSymbol]), ("sc", "currencysymbol", [.currencySymbol]),
            ("sk", "modifiersymbol", [.modifierSymbol]), ("so", "othersymbol", [.otherSymbol]),
            ("s", "symbol", [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            ("zs", "spaceseparator", [.spaceSeparator]), ("zl", "lineseparator", [.lineSeparator]),
            ("zp", "paragraphseparator", [.paragraphSeparator]),
            ("z", "separator", [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            ("cc", "control", [.control]), ("cf", "format", [.format]), ("cs", "surrogate", [.surrogate]),
            ("co", "privateuse", [.privateUse]), ("cn", "unassigned", [.unassigned]),
            ("c", "other", [.control, .format, .surrogate, .privateUse, .unassigned]),
        ]
        var table: [String: Set<Unicode.GeneralCategory>] = [:]
        for group in groups {
            table[group.short] = Set(group.members)
            table[group.long] = Set(group.members)
        }
        return table
    }()
}

/// A ``ScalarSet`` ready for matching: ASCII answers come from a bitmap computed once.
struct CompiledScalarSet {
    /// Membership of U+0000–U+003F and U+0040–U+007F.
    let low: UInt64
    let high: UInt64
    private let set: ScalarSet
    private let ignoreCase: Bool

    init(_ set: ScalarSet, ignoreCase: Bool) {
        self.set = set
        self.ignoreCase = ignoreCase
        var low: UInt64 = 0
        var high: UInt64 = 0
        for value in UInt32(0)..<128 where Self.slowContains(value, set, ignoreCase) {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
        self.low = low
        self.high = high
    }

    @inline(__always)
    func contains(_ value: UInt32) -> Bool {
        if value < 64 { return low & (1 << UInt64(value)) != 0 }
        if value < 128 { return high & (1 << UInt64(value - 64)) != 0 }
        return Self.slowContains(value, set, ignoreCase)
    }

    private static func slowContains(_ value: UInt32, _ set: ScalarSet, _ ignoreCase: Bool) -> Bool {
        guard ignoreCase else { return set.contains(value) }
        // Under `i` a scalar is in the class when a scalar with the same case folding is
        // (ECMA-262 Canonicalize); `[^…]` then negates that.
        let inItems = set.itemsContain(value) || CaseFolding.variants(of: value).contains { set.itemsContain($0) }
            || set.items.contains { item in
                // Single scalars compare by folding too, as the `scalar` instruction does
                // (`ſ` folds to `s`, though `s` has no case variant `ſ`).
                guard case .range(let low, let high) = item, low == high else { return false }
                return CaseFolding.fold(low) == CaseFolding.fold(value)
            }
        return inItems != set.negated
    }
}
