import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `FilePaths.resolve`: the one resolution of relative paths (includes, schemas,
/// `body_file`, multipart files, `tls:` files, the command line's files).
@Suite struct FilePathsTests {
    @Test(arguments: [
        // (path, directory, resolved)
        ("data.json", "flows", "flows/data.json"),
        ("./data.json", "flows", "flows/data.json"),
        ("../shared/ca.pem", "flows/users", "flows/shared/ca.pem"),
        ("../../../x", "a/b", "../x"),
        ("sub//deep/./f", "flows/", "flows/sub/deep/f"),
        ("/etc/ssl/ca.pem", "flows", "/etc/ssl/ca.pem"),
        ("/etc/../etc/ssl/ca.pem", "flows", "/etc/ssl/ca.pem"),
        ("ca.pem", "/srv/flows", "/srv/flows/ca.pem"),
        ("../keys/k.pem", "/srv/flows", "/srv/keys/k.pem"),
        ("../../../../k.pem", "/srv/flows", "/k.pem"),
        ("ca.pem", ".", "ca.pem"),
        ("./ca.pem", ".", "ca.pem"),
        ("ca.pem", "", "ca.pem"),
        ("ca.pem", "/", "/ca.pem"),
        // No tilde expansion: a shell expands `~` on a command line; in a file it is a name.
        ("~/ca.pem", "flows", "flows/~/ca.pem"),
        ("-", "flows", "flows/-"),
    ])
    func resolve(path: String, directory: String, expected: String) {
        #expect(FilePaths.resolve(path, against: directory) == expected)
    }

    /// `-` means standard input only where a key reads a pipe.
    @Test func standardInputStaysWhereAllowed() {
        #expect(FilePaths.resolve("-", against: "flows", standardInput: true) == "-")
        #expect(FilePaths.resolve("./-", against: "flows", standardInput: true) == "flows/-")
        #expect(FilePaths.resolve("data.bin", against: "flows", standardInput: true) == "flows/data.bin")
    }

    @Test(arguments: [
        ("flows/main.yaml", "schemas/user.json", "flows/schemas/user.json"),
        ("main.yaml", "schemas/user.json", "schemas/user.json"),
        ("/srv/main.yaml", "../s.json", "/s.json"),
        ("flows/main.yaml", "/abs/s.json", "/abs/s.json"),
    ])
    func resolveRelativeToAFile(file: String, path: String, expected: String) {
        #expect(FilePaths.resolve(path, relativeTo: file) == expected)
    }

    @Test(arguments: [("a/b/c.yaml", "a/b"), ("c.yaml", "."), ("/c.yaml", "/"), ("./c.yaml", ".")])
    func directoryOfAFile(file: String, expected: String) {
        #expect(FilePaths.directory(of: file) == expected)
    }
}
