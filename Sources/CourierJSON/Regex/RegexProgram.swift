/// A compiled pattern: instructions for ``RegexMatcher``, a backtracking machine.
///
/// Consuming instructions carry a direction: lookbehind bodies run right to left, as
/// ECMA-262 specifies.
struct RegexProgram {
    enum Instruction {
        /// Consumes one scalar equal to the value (already folded when `fold`).
        case scalar(UInt32, fold: Bool, backward: Bool)
        /// Consumes one scalar in `sets[index]`.
        case set(Int, backward: Bool)
        /// Consumes between `min` and `max` scalars of `sets[set]`, greedily or lazily; the
        /// continuation is the next instruction. `memo` is its visited-set row or -1.
        case repeatSet(set: Int, min: Int, max: Int, greedy: Bool, backward: Bool, memo: Int)
        /// Tries `first`, then `second`. `memo` is the visited-set row or -1.
        case split(first: Int, second: Int, memo: Int)
        case jump(Int)
        /// Records the position in a capture slot (undone on backtracking).
        case save(slot: Int)
        /// Clears the capture slots `slots` (a quantified group's captures at each iteration).
        case resetCaptures(Range<Int>)
        case assertion(RegexAssertion, multiline: Bool)
        case backreference(group: Int, fold: Bool, backward: Bool)
        /// Runs the body that follows, up to `lookEnd`; then continues after `end`.
        case lookStart(negative: Bool, end: Int)
        case lookEnd
        /// Stores the position in register slot `slot` before an iteration that may be empty.
        case emptyCheckStart(slot: Int)
        /// Fails when the iteration since `emptyCheckStart` consumed nothing (ECMA-262 RepeatMatcher).
        case emptyCheckEnd(slot: Int)
        case match
    }

    var instructions: [Instruction] = []
    var sets: [CompiledScalarSet] = []
    /// The ASCII bitmaps of `sets`, two words per set, flat so the matcher's hot loop reads
    /// them without touching the sets themselves.
    var asciiBits: [UInt64] = []
    /// Capture groups, not counting group 0 (the whole match).
    var groupCount = 0
    var groupNames: [String: Int] = [:]
    /// Slots: 2 per group (0 is the whole match), then the empty-check registers.
    var slotCount = 0
    /// Rows of the visited set; 0 when the program may not memoize (it has backreferences).
    var memoRows = 0
    /// Scalars a match can start with, when known: lets a search skip other positions cheaply.
    var firstScalars: CompiledScalarSet?
    /// The pattern starts with `^` outside multiline mode: only position 0 can match.
    var anchoredAtStart = false
}
