/// Takes the items of a workflow's `steps:` one at a time while the file is read
/// (``YAMLLoader/load(_:file:steps:)``).
///
/// A 13,000-step file's tree took more memory than its decoded model: streaming lets each
/// step's nodes be decoded and freed before the next step is read, so loading holds one
/// step's tree at a time and `validate` need not hold the model either.
package protocol YAMLStepStream: AnyObject {
    /// One complete item, in document order. `mayBeAliased`: an anchor was set at or before
    /// it, so a later alias may repeat some of its nodes.
    func step(_ node: YAMLNode, mayBeAliased: Bool)
    /// Forgets every item taken so far: the file is being read again from the start (the
    /// fast reader declined it part way), and the same items will come again.
    func restart()
}
