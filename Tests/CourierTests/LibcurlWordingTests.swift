import Courier
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The library's own libcurl client against a socket on 127.0.0.1 that accepts
/// connections (the kernel's backlog) but never answers: errors must speak of the
/// library's configuration properties, never of the runner's YAML keys or flags.
@Suite struct LibcurlWordingTests {
    /// Listens on a free port and never accepts; closing it makes the port refuse.
    ///
    /// The descriptor is closed exactly once: a second `close` could hit a descriptor
    /// number that another test's server has been given in the meantime.
    final class SilentListener: Sendable {
        let port: Int
        private let fd: Mutex<Int32?>

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard fd >= 0, bound, listen(fd, 64) == 0 else {
                if fd >= 0 { _ = Glibc.close(fd) }
                throw POSIXError(.EADDRNOTAVAIL)
            }
            self.fd = Mutex(fd)
            self.port = Int(UInt16(bigEndian: address.sin_port))
        }

        func close() {
            fd.withLock { fd in
                if let open = fd { _ = Glibc.close(open) }
                fd = nil
            }
        }

        deinit { close() }
    }

    static func assertLibraryWording(_ error: APIError) {
        let text = "\(error.message) \(error.hint ?? "")"
        for runnerWord in ["--", "timeout:", "connect_timeout", "ca_cert", "client_cert", "insecure:", "YAML", "workflow"] {
            #expect(!text.contains(runnerWord), "'\(runnerWord)' in: \(text)")
        }
    }

    @Test func aTimeoutNamesConfigurationTimeout() async throws {
        let listener = try SilentListener()
        var config = APIClient.Configuration()
        config.timeout = .milliseconds(300)
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(listener.port)")), configuration: config)
        let error = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/stall")) }
        let failure = try #require(error)
        #expect(failure.kind == .timeout)
        #expect(failure.curlCode == 28)
        #expect(failure.isRetryable)
        #expect(failure.hint?.contains("configuration.timeout") == true, "\(failure)")
        Self.assertLibraryWording(failure)
        await client.shutdown()
    }

    @Test func anUnreadableCAFileNamesConfigurationTLS() async throws {
        let listener = try SilentListener()
        var config = APIClient.Configuration()
        config.timeout = .seconds(5)
        config.tls.caCertificate = "/nonexistent/courier-ca.pem"
        let client = APIClient(baseURL: try #require(URL(string: "https://127.0.0.1:\(listener.port)")), configuration: config)
        let error = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/")) }
        let failure = try #require(error)
        #expect(failure.kind == .tls)
        #expect("\(failure.message) \(failure.hint ?? "")".contains("configuration.tls.caCertificate"), "\(failure)")
        Self.assertLibraryWording(failure)
        await client.shutdown()
    }

    @Test func aClosedPortIsATransportErrorWithCurlsCode() async throws {
        let listener = try SilentListener()
        listener.close()
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(listener.port)")))
        let error = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/")) }
        #expect(error?.kind == .transport)
        #expect(error?.curlCode == 7)
        #expect(error?.transportError?.kind == .connectionRefused)
        #expect(error?.isRetryable == true)
        await client.shutdown()
    }

    @Test func shutdownEndsARequestInFlightAndLaterOnesFailAtOnce() async throws {
        let listener = try SilentListener()
        var config = APIClient.Configuration()
        config.timeout = .seconds(30)
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(listener.port)")), configuration: config)
        let inFlight = Task { try await client.send(Get<String>(path: "/stall")) }
        try await Task.sleep(for: .milliseconds(100))
        await client.shutdown()
        let result = await inFlight.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected an APIError, got \(result)"); return }
        #expect(error.kind == .shutDown)
        let later = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/")) }
        #expect(later?.kind == .shutDown)
    }

    @Test func cancellingARealTransferIsCancelled() async throws {
        let listener = try SilentListener()
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(listener.port)")))
        let task = Task { try await client.send(Get<String>(path: "/stall")) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected an APIError, got \(result)"); return }
        #expect(error.kind == .cancelled)
        await client.shutdown()
    }
}

@Suite struct LifecycleTests {
    @Test func aClientIsFreedWhenItsLastReferenceGoesEvenAfterRequests() async throws {
        let listener = try LibcurlWordingTests.SilentListener()
        listener.close()
        weak var weakClient: APIClient?
        do {
            let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(listener.port)")))
            weakClient = client
            _ = try? await client.send(Get<String>(path: "/"))
            _ = await client.send(all: [Get<String>(path: "/a"), Get<String>(path: "/b")], maxConcurrency: 2)
        }
        // Nothing (no task, no transfer, no driver thread) keeps it alive: its deinit ends the libcurl thread.
        #expect(weakClient == nil)
    }
}
