/// What a template filter or function looks like, declared once beside its evaluation: the
/// parser checks names and argument counts against it, and `courier schema` and the docs can
/// list it.
package struct CallShape: Sendable {
    /// The name as written (`url_encode`, `random_int`).
    package let name: String
    /// How many arguments it takes (for a filter, besides its input).
    package let arguments: ClosedRange<Int>
    /// What it accepts as input, in words (`a string`); nil for a function.
    package let input: String?
    package let description: String
    /// A use in a template (`{{ name | upper }}`).
    package let example: String

    package init(name: String, arguments: ClosedRange<Int> = 0...0, input: String? = nil, description: String, example: String) {
        self.name = name
        self.arguments = arguments
        self.input = input
        self.description = description
        self.example = example
    }
}
