/// The message for a command that selected no workflow: what was found and why none was
/// taken, e.g. `no workflows selected: 3 workflows found in Workflows/, none has tag 'nope'`.
///
/// Selecting nothing is a usage error (exit 2): a CI job whose tag or path went wrong must
/// not pass by running nothing.
enum EmptySelection {
    /// Which selection options were given (empty for `validate` and `list`).
    struct Criteria {
        var tags: [String] = []
        var excludedTags: [String] = []
        var filter: String?

        var isEmpty: Bool { tags.isEmpty && excludedTags.isEmpty && filter == nil }

        /// Why none of the workflows found was taken.
        var reason: String {
            switch (tags.isEmpty, excludedTags.isEmpty, filter) {
            case (false, true, nil):
                return "none has tag " + tags.map { "'\($0)'" }.joined(separator: " or ")
            case (true, true, let filter?):
                return "none matches --filter '\(filter)'"
            case (true, false, nil):
                return "each has an excluded tag (" + excludedTags.map { "--exclude-tag \($0)" }.joined(separator: " ") + ")"
            default:
                var options = tags.map { "--tag \($0)" } + excludedTags.map { "--exclude-tag \($0)" }
                if let filter { options.append("--filter '\(filter)'") }
                return "none is selected by " + options.joined(separator: " ")
            }
        }
    }

    static func message(found: WorkflowDiscovery.Found, skipped: Int, workflows: Int, criteria: Criteria) -> String {
        var place = ""
        if !found.directories.isEmpty {
            place = " in " + found.directories.map { $0 == "." ? "the current directory" : $0 }.joined(separator: ", ")
        }
        var text = "no workflows selected: "
        if workflows > 0 {
            text += "\(count(workflows, "workflow")) found\(place), " + (criteria.isEmpty ? "none selected" : criteria.reason)
        } else if skipped > 0 {
            text += "\(count(skipped, "YAML file")) found\(place), " + (skipped == 1 ? "it is not a workflow" : "none is a workflow") + " (no 'steps:')"
        } else {
            text += "no workflow files found\(place)"
        }
        if found.ignored > 0 {
            text += "; \(found.ignored) left out by .courierignore or --exclude"
        }
        return text
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
