import Foundation

// `courier` — run, validate and list API workflows written in YAML.
let status = await CLI.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
