import CourierHTTP
import Foundation

// First of all: a reader that goes away (`| head -1`) must be a write error the
// console writer handles (EPIPE), not a death by SIGPIPE before teardown and reports.
// libcurl would ignore it only once loaded, and `validate`, `query` and `version` never load it.
signal(SIGPIPE, SIG_IGN)
// Before any other thread allocates (see MallocTuning).
MallocTuning.apply()

// `courier` — run, validate and list API workflows written in YAML.
let status = await CLI.main(Array(CommandLine.arguments.dropFirst()))
// `run` loads libcurl in the background while it reads the workflows: exiting during that
// load (a run stopped at validation) would crash in OpenSSL's exit handlers.
HTTPClient.waitForPreload()
exit(Output.exitStatus(after: status))
