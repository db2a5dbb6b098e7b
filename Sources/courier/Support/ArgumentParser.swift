import CourierDiagnostics

/// A small parser for `courier` sub-command arguments: long and short options,
/// `--name=value` and `--name value`, repeatable options, `--` ending options.
struct ArgumentParser {
    struct Option {
        var names: [String]
        /// What the value is, as `--help` shows it (`FILE`, `NAME=VALUE`); nil for a flag.
        var placeholder: String?
        var help: String
        var takesValue: Bool { placeholder != nil }

        /// An option taking a value described by `placeholder`, or a flag when it is nil.
        init(names: [String], value placeholder: String?, help: String) {
            self.names = names
            self.placeholder = placeholder
            self.help = help
        }

        /// A flag, or an option with an unnamed value (prefer naming it with `value:`).
        init(names: [String], takesValue: Bool, help: String) {
            self.init(names: names, value: takesValue ? "VALUE" : nil, help: help)
        }
    }

    let command: String
    let options: [Option]

    struct Parsed {
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positional: [String] = []

        func last(_ name: String) -> String? { values[name]?.last }
        func all(_ name: String) -> [String] { values[name] ?? [] }
        func has(_ name: String) -> Bool { flags.contains(name) }
    }

    func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var parsed = Parsed()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positional += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                parsed.positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                var message = "unknown option '\(name)' for 'courier \(command)'"
                if let close = suggestion(for: name, among: options.flatMap(\.names)) {
                    message += "; did you mean '\(close)'?"
                }
                throw UsageError(message)
            }
            let key = option.names[0]
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '\(name)' needs a value")
                }
                parsed.values[key, default: []].append(value)
            } else {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                parsed.flags.insert(key)
            }
        }
        return parsed
    }

    /// The options part of `--help`.
    var optionsHelp: String {
        options.map { option in
            let names = option.names.reversed().joined(separator: ", ") + (option.placeholder.map { " " + $0 } ?? "")
            return "  " + names.padding(toLength: max(names.count + 2, 26), withPad: " ", startingAt: 0) + option.help
        }.joined(separator: "\n")
    }
}
