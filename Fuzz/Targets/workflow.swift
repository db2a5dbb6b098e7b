// Fuzz target `workflow`: YAML text through the loader and decoder, as `courier validate` and
// `courier run` load a file (decodeWorkflow registers the text, then loadWorkflow parses it with
// the fast reader or libyaml, builds located nodes and decodes the model). File checks are off: includes and body
// files would make the fuzzer read the disk.
import CourierDiagnostics
import CourierWorkflow

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkflow(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let sources = SourceStore()
    let result = decodeWorkflow(text: text, path: "fuzz.yaml", sources: sources, options: LoadOptions(resolveFiles: false))
    // Render the diagnostics too: the renderer quotes the source around each location.
    if case .failure(let list) = result {
        _ = DiagnosticRenderer(sources: sources, color: false).render(list.diagnostics)
    }
    return 0
}
