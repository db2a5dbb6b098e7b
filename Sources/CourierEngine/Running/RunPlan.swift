import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierSecrets
import CourierWorkflow

/// What each part of a workflow run is handed, made once per run from the engine and its
/// ``RunSettings``. The parts never read the settings or a mode flag themselves: a dry run
/// is chosen here, as a delivery that never sends, a sleeper that never sleeps and
/// captures that hold placeholders.
struct RunPlan: Sendable {
    /// `--var` and `--vars-file`, over what a workflow's `vars:` and `secrets:` say.
    struct Variables: Sendable {
        let file: [(name: String, value: JSONValue)]
        let commandLine: [(name: String, value: JSONValue)]

        /// The value given for `name`, with `--var` first.
        func override(for name: String) -> JSONValue? {
            if let value = commandLine.last(where: { $0.name == name })?.value { return value }
            return file.last(where: { $0.name == name })?.value
        }
    }

    /// How requests are built from a step.
    struct Requests: Sendable {
        /// `--timeout`, `--insecure`, `--cacert`… as the layer under a workflow's `defaults:`.
        let commandLine: RequestOptions
        /// `--max-body-size`.
        let maxResponseBytes: Int
        /// `-v`: read back the headers libcurl sent for every request.
        let recordSentRequests: Bool
    }

    /// What a step's retries start from when it says nothing (`--retry N`), and their jitter.
    struct Retries: Sendable {
        let commandLineAttempts: Int?
        let jitterSeed: UInt64?
        let clock: any EngineClock
    }

    let environment: [String: String]
    let variables: Variables
    let requests: Requests
    let retries: Retries
    /// `--curl`: each attempt keeps a command that reproduces it.
    let curlCommands: Bool
    /// Every value to mask is registered here; every output masks with its policy.
    let secrets: SecretRegistry
    let functions: BuiltinFunctions
    /// Where includes with a templated path are read.
    let sources: SourceStore
    /// Sends a request, or in a dry run, does not.
    let delivery: any RequestDelivery
    /// `delay:` and retry waits.
    let sleeper: any Sleeper
    /// Set when the run is on the thread that drives transfers: long work (a large body's
    /// checks, loading an include) goes here, so that thread keeps pumping.
    let offDriver: (any TaskExecutor)?
    private let dryRun: Bool

    init(engine: Engine) {
        let settings = engine.settings
        environment = settings.environment
        variables = Variables(file: settings.fileVariables, commandLine: settings.commandLineVariables)
        requests = Requests(commandLine: settings.commandLineOptions, maxResponseBytes: settings.maxResponseBytes,
                            recordSentRequests: settings.recordSentRequests)
        retries = Retries(commandLineAttempts: settings.retryAttempts, jitterSeed: settings.retryJitterSeed, clock: engine.clock)
        curlCommands = settings.curlCommands
        secrets = settings.secrets
        functions = engine.functions
        sources = engine.sources
        dryRun = settings.dryRun
        // A dry run sends nothing, so it waits for nothing either (not even `delay:`).
        delivery = settings.dryRun ? NeverDelivered() as any RequestDelivery : TransportDelivery(transport: engine.transport, control: engine.control)
        sleeper = settings.dryRun ? NoWaitSleeper() : engine.sleeper
        offDriver = engine.heavyWorkExecutor
    }

    /// What captures hold when nothing was sent, and which steps that makes undecidable:
    /// one per workflow run, since it learns the names of the captures it stands in for.
    func placeholders() -> any PlaceholderPolicy {
        dryRun ? DryRunPlaceholders() : NoPlaceholders()
    }
}
