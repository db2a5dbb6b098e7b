// Fuzz target `template`: one string through the `{{ … }}` template parser and its expression
// parser, as the decoder parses every templated YAML scalar.
import CourierDiagnostics
@testable import CourierWorkflow

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var diagnostics: [Diagnostic] = []
    let positions = TextPositions(base: SourceLocation(file: "fuzz", line: 1, column: 1), exact: true)
    _ = TemplateParser.parse(text, positions: positions, range: positions.range(0, text.unicodeScalars.count),
                             diagnostics: &diagnostics)
    return 0
}
