#!/usr/bin/env python3
"""A small HTTP forward proxy for Courier's integration tests (Python 3.11 stdlib only).

    python3 Tests/Servers/forward_proxy.py --port-file PATH [--port 0] [--auth USER:PASS] [--verbose]

- Absolute-URI requests (`GET http://127.0.0.1:PORT/path HTTP/1.1`, any method) are forwarded
  to the origin; `Via: 1.1 courier-test-proxy` is added to the forwarded request and to the
  response. Request bodies (Content-Length or chunked) and response bodies are streamed.
- `CONNECT host:port` opens a TCP tunnel (for HTTPS through the proxy); nothing is added there.
- Only loopback targets (127.0.0.0/8, ::1, localhost) are allowed: others get 403.
- `--auth USER:PASS` requires `Proxy-Authorization: Basic ...` (407 otherwise).
- `GET /__proxy_stats` (origin-form, sent to the proxy itself) returns the counts:
  {"requests", "http", "connect", "denied", "auth_failed", "by_method", "by_host"};
  `GET /__proxy_stats?reset=1` returns them and sets them to zero.

Writes the port to --port-file once listening and prints `listening on http://127.0.0.1:PORT`.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import ipaddress
import json
import os
import select
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import remove_stale, serve  # noqa: E402  (the demo's start-up contract)

VIA = "1.1 courier-test-proxy"
HOP_BY_HOP = {
    "connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate",
    "te", "trailer", "transfer-encoding", "upgrade",
}
CHUNK = 256 * 1024


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.data = {"requests": 0, "http": 0, "connect": 0, "denied": 0, "auth_failed": 0,
                     "by_method": {}, "by_host": {}}

    def count(self, kind: str, method: str, host: str) -> None:
        with self.lock:
            d = self.data
            d["requests"] += 1
            d[kind] += 1
            d["by_method"][method] = d["by_method"].get(method, 0) + 1
            d["by_host"][host] = d["by_host"].get(host, 0) + 1

    def bump(self, key: str) -> None:
        with self.lock:
            self.data[key] += 1

    def snapshot(self, reset: bool) -> dict:
        with self.lock:
            snap = json.loads(json.dumps(self.data))
            if reset:
                self.reset()
        return snap


STATS = Stats()


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class BodyStream:
    """The request body as an iterator of pieces (Content-Length or chunked)."""

    def __init__(self, rfile, headers) -> None:
        self.rfile = rfile
        self.chunked = "chunked" in (headers.get("Transfer-Encoding") or "").lower()
        self.length = None if self.chunked else int(headers.get("Content-Length") or 0)

    def __iter__(self):
        if not self.chunked:
            left = self.length
            while left > 0:
                data = self.rfile.read1(min(CHUNK, left))
                if not data:
                    raise ConnectionError("client closed during the request body")
                left -= len(data)
                yield data
            return
        while True:
            line = self.rfile.readline(65537)
            if not line:
                raise ConnectionError("client closed during the chunked body")
            size = int(line.split(b";", 1)[0].strip(), 16)
            if size == 0:
                while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass
                return
            while size > 0:
                data = self.rfile.read1(min(CHUNK, size))
                if not data:
                    raise ConnectionError("client closed during the chunked body")
                size -= len(data)
                yield data
            self.rfile.readline(3)


class ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else small responses wait ~40 ms for delayed ACKs
    server_version = "courier-test-proxy"
    timeout = 120
    verbose = False
    auth: str | None = None  # "user:pass"

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002
        if self.verbose:
            sys.stderr.write("proxy %s - %s\n" % (self.address_string(), format % args))

    def reply(self, status: int, payload: dict, headers=()) -> None:
        data = json.dumps(payload).encode() + b"\n"
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def discard_body(self) -> None:
        try:
            for _ in BodyStream(self.rfile, self.headers):
                pass
        except (ValueError, ConnectionError):
            self.close_connection = True

    def authorized(self) -> bool:
        if not self.auth:
            return True
        value = self.headers.get("Proxy-Authorization") or ""
        scheme, _, cred = value.partition(" ")
        try:
            ok = scheme.lower() == "basic" and base64.b64decode(cred.strip()).decode() == self.auth
        except (ValueError, UnicodeDecodeError):
            ok = False
        if not ok:
            STATS.bump("auth_failed")
            self.discard_body()
            self.reply(407, {"error": "proxy authentication required"},
                       [("Proxy-Authenticate", 'Basic realm="courier-test-proxy"')])
        return ok

    # ---- CONNECT -------------------------------------------------------

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        if not host or not port.isdigit():
            return self.reply(400, {"error": "CONNECT needs host:port"})
        if not self.authorized():
            return
        if not is_loopback(host):
            STATS.bump("denied")
            return self.reply(403, {"error": f"only loopback targets are allowed, not {host}"})
        STATS.count("connect", "CONNECT", self.path)
        try:
            upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
        except OSError as exc:
            return self.reply(502, {"error": f"cannot connect to {self.path}: {exc}"})
        self.close_connection = True
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.tunnel(self.connection, upstream)

    def tunnel(self, client: socket.socket, upstream: socket.socket) -> None:
        upstream.settimeout(None)
        # Bytes the client sent right after the CONNECT headers may sit in rfile's buffer.
        # With a non-blocking socket, peek() returns them without waiting for more.
        client.settimeout(0)
        try:
            pending = self.rfile.peek(1)
        except (BlockingIOError, OSError):
            pending = b""
        client.settimeout(None)
        if pending:
            upstream.sendall(self.rfile.read1(len(pending)))
        socks = [client, upstream]
        try:
            while socks:
                readable, _, _ = select.select(socks, [], [], 300)
                if not readable:
                    break
                for s in readable:
                    other = upstream if s is client else client
                    try:
                        data = s.recv(CHUNK)
                    except OSError:
                        data = b""
                    if not data:
                        try:
                            other.shutdown(socket.SHUT_WR)
                        except OSError:
                            pass
                        socks.remove(s)
                        continue
                    other.sendall(data)
        except OSError:
            pass
        finally:
            upstream.close()

    # ---- plain HTTP forwarding ----------------------------------------

    def forward(self):
        url = urlsplit(self.path)
        if not url.scheme:
            if url.path == "/__proxy_stats":
                self.discard_body()
                reset = parse_qs(url.query).get("reset", ["0"])[-1] in ("1", "true")
                return self.reply(200, STATS.snapshot(reset))
            self.discard_body()
            return self.reply(400, {"error": "a proxy needs an absolute URI (or CONNECT)"})
        if url.scheme != "http":
            self.discard_body()
            return self.reply(400, {"error": f"unsupported scheme {url.scheme}"})
        if not self.authorized():
            return
        host = url.hostname or ""
        port = url.port or 80
        if not is_loopback(host):
            STATS.bump("denied")
            self.discard_body()
            return self.reply(403, {"error": f"only loopback targets are allowed, not {host}"})
        STATS.count("http", self.command, f"{host}:{port}")

        headers = []
        conn_tokens = {t.strip().lower() for t in (self.headers.get("Connection") or "").split(",")}
        for name, value in self.headers.items():
            lname = name.lower()
            if lname in HOP_BY_HOP or lname in conn_tokens:
                continue
            headers.append((name, value))
        via = [v for k, v in headers if k.lower() == "via"]
        headers = [(k, v) for k, v in headers if k.lower() != "via"]
        headers.append(("Via", ", ".join(via + [VIA])))
        body = BodyStream(self.rfile, self.headers)
        has_body = body.chunked or (body.length or 0) > 0
        target = (url.path or "/") + ("?" + url.query if url.query else "")

        upstream = http.client.HTTPConnection(host.strip("[]"), port, timeout=60)
        try:
            upstream.putrequest(self.command, target, skip_host=True, skip_accept_encoding=True)
            if not any(k.lower() == "host" for k, _ in headers):
                upstream.putheader("Host", url.netloc)
            for k, v in headers:
                upstream.putheader(k, v)
            if body.chunked:
                upstream.putheader("Transfer-Encoding", "chunked")
            elif has_body:
                upstream.putheader("Content-Length", str(body.length))
            upstream.endheaders()
            for piece in body:
                if body.chunked:
                    upstream.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
                else:
                    upstream.send(piece)
            if body.chunked:
                upstream.send(b"0\r\n\r\n")
            resp = upstream.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            self.close_connection = True
            upstream.close()
            return self.reply(502, {"error": f"upstream {host}:{port} failed: {exc}"})

        try:
            self.send_response(resp.status, resp.reason)
            resp_conn_tokens = {t.strip().lower() for t in (resp.getheader("Connection") or "").split(",")}
            length = resp.getheader("Content-Length")
            no_body = self.command == "HEAD" or resp.status in (204, 304) or 100 <= resp.status < 200
            upstream_via = []
            for name, value in resp.getheaders():
                lname = name.lower()
                if lname in HOP_BY_HOP or lname in resp_conn_tokens:
                    continue
                if lname == "via":
                    upstream_via.append(value)
                    continue
                self.send_header(name, value)
            self.send_header("Via", ", ".join(upstream_via + [VIA]))
            chunked_out = not no_body and length is None
            if chunked_out:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            if not no_body:
                while True:
                    data = resp.read1(CHUNK) if hasattr(resp, "read1") else resp.read(CHUNK)
                    if not data:
                        break
                    if chunked_out:
                        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                    else:
                        self.wfile.write(data)
                if chunked_out:
                    self.wfile.write(b"0\r\n\r\n")
        except (OSError, http.client.HTTPException):
            self.close_connection = True  # a truncated upstream response stays truncated
        finally:
            upstream.close()

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.safe_forward
        raise AttributeError(name)

    def safe_forward(self):
        try:
            self.forward()
        except (ValueError, ConnectionError, OSError):
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128
    verbose = False

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="HTTP forward proxy for tests (loopback targets only)")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--port-file")
    p.add_argument("--auth", help="USER:PASS required as Proxy-Authorization: Basic")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    ProxyHandler.verbose = Server.verbose = args.verbose
    ProxyHandler.auth = args.auth
    remove_stale(args.port_file)
    server = Server(("127.0.0.1", args.port), ProxyHandler)
    return serve([(server, "http", args.port_file)])

if __name__ == "__main__":
    sys.exit(main())
