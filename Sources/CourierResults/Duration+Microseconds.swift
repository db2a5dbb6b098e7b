extension Duration {
    /// Whole microseconds, rounded toward zero, saturating at `Int.min`/`Int.max` (about
    /// 292,000 years): a duration that came from outside (a server's `Retry-After`, a library
    /// caller's wait) can be any size, and converting it for a result must never trap.
    package var saturatingMicroseconds: Int {
        let (seconds, attoseconds) = components
        let saturated = seconds < 0 ? Int.min : Int.max
        let (whole, overflowed) = Int(seconds).multipliedReportingOverflow(by: 1_000_000)
        guard !overflowed else { return saturated }
        let (sum, carried) = whole.addingReportingOverflow(Int(attoseconds / 1_000_000_000_000))
        return carried ? saturated : sum
    }
}
