import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `RequestOptions.layered`: request over workflow defaults over command line over
/// built-ins, for every option at every layer.
@Suite struct RequestOptionLayeringTests {
    static let range = SourceRange(at: SourceLocation(file: "layers.yaml", line: 1, column: 1))
    static func literal(_ text: String) -> Template { Template(literal: text, range: range) }

    /// The layers above the built-ins, top first.
    enum Layer: Int, CaseIterable, Sendable { case request = 0, defaults, commandLine }

    /// A bottom layer with the values of spec section 6, as the engine gives it.
    static let bottom = RequestOptions(timeout: .seconds(30), connectTimeout: .seconds(10), followRedirects: true, trustedRedirects: false,
                                       maxRedirects: 10, compressed: true, cookies: true, tls: RequestTLSOptions(insecure: false))

    /// One option: how a layer sets it (each layer to a value that differs from the layer
    /// below it and from the built-in), and how to read it back as text.
    struct Option: Sendable, CustomTestStringConvertible {
        var name: String
        var set: @Sendable (inout RequestOptions, Layer) -> Void
        var read: @Sendable (RequestOptions) -> String?
        var testDescription: String { name }
    }

    /// A Bool per layer that differs from the layer below and, on the command line, from the built-in.
    static func flag(_ layer: Layer, builtIn: Bool) -> Bool { layer.rawValue % 2 == 0 ? !builtIn : builtIn }

    static let options: [Option] = [
        Option(name: "base_url", set: { $0.baseURL = literal("http://\($1)") }, read: { $0.baseURL?.literalText }),
        Option(name: "timeout", set: { $0.timeout = .seconds(100 + $1.rawValue) }, read: { $0.timeout.map { "\($0)" } }),
        Option(name: "connect_timeout", set: { $0.connectTimeout = .seconds(100 + $1.rawValue) }, read: { $0.connectTimeout.map { "\($0)" } }),
        Option(name: "follow_redirects", set: { $0.followRedirects = flag($1, builtIn: true) }, read: { $0.followRedirects.map { "\($0)" } }),
        Option(name: "follow_redirects.trusted", set: { $0.trustedRedirects = flag($1, builtIn: false) },
               read: { $0.trustedRedirects.map { "\($0)" } }),
        Option(name: "max_redirects", set: { $0.maxRedirects = 100 + $1.rawValue }, read: { $0.maxRedirects.map { "\($0)" } }),
        Option(name: "http_version", set: { $0.httpVersion = $1.rawValue % 2 == 0 ? .http2 : .http1_1 }, read: { $0.httpVersion?.rawValue }),
        Option(name: "compressed", set: { $0.compressed = flag($1, builtIn: true) }, read: { $0.compressed.map { "\($0)" } }),
        Option(name: "cookies", set: { $0.cookies = flag($1, builtIn: true) }, read: { $0.cookies.map { "\($0)" } }),
        // Set with `cookies`, as the decoder sets them: the layer that sets `cookies` decides both.
        Option(name: "cookies.only", set: { $0.cookies = true; $0.onlyCookies = ["c-\($1)"] }, read: { $0.onlyCookies?.joined() }),
        Option(name: "proxy", set: { $0.proxy = literal("http://proxy-\($1)") }, read: { $0.proxy?.literalText }),
        Option(name: "tls.ca", set: { $0.tls = RequestTLSOptions(ca: literal("ca-\($1)")) }, read: { $0.tls?.ca?.literalText }),
        Option(name: "tls.cert", set: { $0.tls = RequestTLSOptions(cert: literal("cert-\($1)")) }, read: { $0.tls?.cert?.literalText }),
        Option(name: "tls.key", set: { $0.tls = RequestTLSOptions(key: literal("key-\($1)")) }, read: { $0.tls?.key?.literalText }),
        Option(name: "tls.password", set: { $0.tls = RequestTLSOptions(password: literal("pw-\($1)")) }, read: { $0.tls?.password?.literalText }),
        Option(name: "tls.pinned_key", set: { $0.tls = RequestTLSOptions(pinnedKey: literal("sha256//\($1)")) }, read: { $0.tls?.pinnedKey?.literalText }),
        Option(name: "header X-Layer", set: { $0.headers = [HeaderEntry(name: "X-Layer", value: literal("\($1)"), range: range)] },
               read: { $0.headers.first { $0.literalName == "X-Layer" }?.value?.literalText }),
    ]

    /// A request keeps no copy of options that write nothing, so `writesNothing` must see every
    /// field: each option set on a request comes back from it.
    @Test(arguments: options)
    func aRequestKeepsEveryOptionWrittenOnIt(option: Option) {
        var written = RequestOptions()
        option.set(&written, .request)
        #expect(!written.writesNothing)
        let request = Request(method: Self.literal("GET"), url: Self.literal("http://x"), options: written, range: Self.range)
        #expect(option.read(request.options) == option.read(written) && option.read(written) != nil, "\(option.name)")
    }

    @Test func writesNothingChecksEveryField() {
        #expect(RequestOptions().writesNothing)
        var retry = RequestOptions()
        retry.retry = StepRetry(attempts: 2, range: Self.range)
        #expect(!retry.writesNothing)
        var auth = RequestOptions()
        auth.auth = .bearer(Self.literal("t"))
        #expect(!auth.writesNothing)
        // A field added to RequestOptions must be added to `writesNothing` (and to the list
        // above): this count is the reminder.
        #expect(Mirror(reflecting: RequestOptions()).children.count == 15)
    }

    /// Every layer from `top` down sets the option: `top`'s value is the one sent.
    @Test(arguments: options, Layer.allCases)
    func theHighestLayerThatSetsAnOptionWins(option: Option, top: Layer) {
        var layers = [RequestOptions(), RequestOptions(), RequestOptions()]
        for layer in Layer.allCases where layer.rawValue >= top.rawValue { option.set(&layers[layer.rawValue], layer) }
        let effective = RequestOptions.layered(request: layers[0], defaults: layers[1], commandLine: layers[2], builtIns: Self.bottom)
        var expected = RequestOptions()
        option.set(&expected, top)
        #expect(option.read(effective) == option.read(expected), "\(option.name) set from \(top) down")
        // The value one layer down is different, so a wrong precedence would show.
        var below = Self.bottom
        if let next = Layer(rawValue: top.rawValue + 1) { option.set(&below, next) }
        #expect(option.read(effective) != option.read(below), "\(option.name): the layer under \(top) must not win")
    }

    /// A layer that does not set the option lets the next one through (a gap in the middle).
    @Test(arguments: options)
    func anUnsetLayerFallsThrough(option: Option) {
        var commandLine = RequestOptions()
        option.set(&commandLine, .commandLine)
        let effective = RequestOptions.layered(request: RequestOptions(), defaults: RequestOptions(), commandLine: commandLine, builtIns: Self.bottom)
        #expect(option.read(effective) == option.read(commandLine))
    }

    /// Nothing set anywhere: the bottom layer (the engine's is spec section 6's; see
    /// CourierEngineTests' `BuiltInOptionsTests`).
    @Test func nothingSetGivesTheBottomLayer() {
        let effective = RequestOptions.layered(request: RequestOptions(), defaults: RequestOptions(), commandLine: RequestOptions(), builtIns: Self.bottom)
        #expect(effective.timeout == .seconds(30))
        #expect(effective.connectTimeout == .seconds(10))
        #expect(effective.followRedirects == true)
        #expect(effective.maxRedirects == 10)
        #expect(effective.compressed == true)
        #expect(effective.cookies == true)
        #expect(effective.tls?.insecure == false)
        #expect(effective.httpVersion == nil, "negotiated by libcurl")
        #expect(effective.proxy == nil, "the environment's")
        #expect(effective.baseURL == nil)
        #expect(effective.headers.isEmpty)
    }

    /// TLS merges field by field: each layer may give a different file.
    @Test func tlsFieldsComeFromDifferentLayers() {
        let effective = RequestOptions.layered(request: RequestOptions(tls: RequestTLSOptions(key: Self.literal("k"))),
                                               defaults: RequestOptions(tls: RequestTLSOptions(cert: Self.literal("c"))),
                                               commandLine: RequestOptions(tls: RequestTLSOptions(ca: Self.literal("ca"))), builtIns: Self.bottom)
        #expect(effective.tls?.ca?.literalText == "ca")
        #expect(effective.tls?.cert?.literalText == "c")
        #expect(effective.tls?.key?.literalText == "k")
        #expect(effective.tls?.insecure == false)
    }

    /// `tls.insecure`: a workflow may turn verification off over the command line's default,
    /// and `--insecure` turns it off whatever a workflow says (the one exception).
    @Test func insecureLayers() {
        func layered(request: Bool?, defaults: Bool?, commandLine: Bool?) -> Bool? {
            RequestOptions.layered(request: RequestOptions(tls: request.map { RequestTLSOptions(insecure: $0) }),
                                   defaults: RequestOptions(tls: defaults.map { RequestTLSOptions(insecure: $0) }),
                                   commandLine: RequestOptions(tls: commandLine.map { RequestTLSOptions(insecure: $0) }), builtIns: Self.bottom).tls?.insecure
        }
        #expect(layered(request: nil, defaults: nil, commandLine: nil) == false)
        #expect(layered(request: true, defaults: nil, commandLine: nil) == true)
        #expect(layered(request: nil, defaults: true, commandLine: nil) == true)
        #expect(layered(request: false, defaults: true, commandLine: nil) == false)
        #expect(layered(request: nil, defaults: nil, commandLine: true) == true)
        #expect(layered(request: false, defaults: false, commandLine: true) == true, "--insecure wins over tls.insecure: false")
    }

    /// `retry:` is only written in `defaults:` (a step's own `retry:` replaces it whole).
    @Test func retryComesFromTheDefaults() {
        let effective = RequestOptions.layered(request: RequestOptions(), defaults: RequestOptions(retry: StepRetry(attempts: 3, range: Self.range)),
                                               commandLine: RequestOptions(), builtIns: Self.bottom)
        #expect(effective.retry?.attempts == 3)
    }
}
