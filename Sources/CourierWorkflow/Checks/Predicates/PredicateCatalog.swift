/// Every predicate of spec section 7, in the order suggestions list them: the one list the
/// decoder, the name checker, the engine and `courier schema` read.
extension PredicateDefinition {
    package static let all: [PredicateDefinition] = comparison + containment + structure

    /// The keys, for did-you-mean and "valid predicates are …".
    package static let names: [String] = all.map(\.shape.key)

    private static let byName: [String: PredicateDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.shape.key, $0) })

    /// The definition written `name`; looked up once per predicate, when the workflow is decoded.
    package static func named(_ name: String) -> PredicateDefinition? { byName[name] }
}
