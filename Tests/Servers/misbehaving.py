#!/usr/bin/env python3
"""A deliberately broken HTTP server for Courier's robustness tests (standard library, 127.0.0.1 only).

    python3 Tests/Servers/misbehaving.py --port-file PATH [--port 0] [--verbose]

Same start-up contract as testserver.py (Demo/loopback.py). Every path below answers with
raw bytes written to the socket, so it can break HTTP in ways http.server never would.
Each scenario is bounded in time (at most `max_ms`, default 20000, for the endless and slow
ones) so a client that hangs cannot keep a thread forever. See Tests/Servers/README.md.
"""

from __future__ import annotations

import argparse
import gzip
import os
import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import remove_stale, serve  # noqa: E402  (the shared start-up contract)

MAX_MS = 20_000


def _bomb(size: int) -> bytes:
    """A small gzip member that inflates to `size` zero bytes (cached per size)."""
    with _bomb_lock:
        if size not in _bombs:
            _bombs[size] = gzip.compress(b"\0" * size, compresslevel=9)
        return _bombs[size]


_bombs: dict[int, bytes] = {}
_bomb_lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    verbose = False

    def log_message(self, fmt, *args):  # noqa: N802 (http.server's name)
        if self.verbose:
            super().log_message(fmt, *args)

    # Every method goes through one dispatcher: the scenarios do not care about the method.
    def do_GET(self):  # noqa: N802
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_GET

    def dispatch(self):
        url = urlsplit(self.path)
        self.query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        self.close_connection = True
        self.drain_body()
        name = url.path.strip("/").replace("-", "_") or "index"
        handler = getattr(self, "s_" + name, None)
        if handler is None:
            self.raw(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        try:
            handler()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: that is what these scenarios are for

    def drain_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        while length > 0:
            chunk = self.rfile.read(min(length, 1 << 16))
            if not chunk:
                break
            length -= len(chunk)

    # -- helpers

    def int_arg(self, name: str, default: int, maximum: int | None = None) -> int:
        try:
            value = int(self.query.get(name, default))
        except ValueError:
            value = default
        return min(value, maximum) if maximum is not None else value

    def raw(self, data: bytes):
        self.wfile.write(data)
        self.wfile.flush()

    def reset(self):
        """Closes with RST instead of FIN (SO_LINGER 0): the client sees 'connection reset'."""
        try:
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass

    def deadline(self) -> float:
        return time.monotonic() + self.int_arg("max_ms", MAX_MS, MAX_MS) / 1000

    # -- scenarios (path /name-with-dashes → s_name_with_dashes)

    def s_index(self):
        body = b"misbehaving test server\n"
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))

    def s_terminal(self):
        """Terminal control sequences in a header, a JSON value (`name`, for a captured step
        name) and the text after it: cursor up, erase line, clear screen, an OSC title, a
        C1 CSI (U+009B) and DEL. `secret` holds ESC too: it must still be masked."""
        value = "\x1b[1A\x1b[2K  PASS  fake"
        doc = json.dumps({"name": value, "secret": "tok\x1ben-9"}).encode()
        text = b"\x1b]0;owned\x07\x1b[2J\xc2\x9b2J\x7f tok\x1ben-9 end\n"
        body, kind = (doc, b"application/json") if "json" in self.query else (text, b"text/plain")
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: " + kind + b"\r\nX-Evil: a\x1b[2Jb\r\n"
                 b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))

    def s_http10(self):
        """An HTTP/1.0 server (not broken, just old): `HTTP/1.0 200 OK` with the request line
        it got as JSON, so a test sees the version both ways."""
        body = json.dumps({"request_line": self.requestline}).encode()
        self.raw(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))

    def s_reset_headers(self):
        """Part of a header block, then a reset."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Half")
        self.reset()

    def s_reset_body(self):
        """Headers announcing 1000 bytes, 100 of them, then a reset."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n" + b"x" * 100)
        self.reset()

    def s_short_body(self):
        """Content-Length larger than what is sent, then an orderly close (FIN)."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n" + b"x" * 10)

    def s_bad_chunking(self):
        """A chunk size that is not hexadecimal."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                 b"5\r\nhello\r\nzz\r\nnot a chunk\r\n0\r\n\r\n")

    def s_corrupt_gzip(self):
        """Content-Encoding: gzip over bytes that are not gzip."""
        body = b"\x1f\x8b\x08\x00garbage, not deflate data" + bytes(range(256))
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def s_gzip_bomb(self):
        """A small gzip body that inflates to `size` bytes (default 64 MiB, max 1 GiB)."""
        body = _bomb(self.int_arg("size", 64 << 20, 1 << 30))
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body))
        self.raw(body)

    def s_huge_header(self):
        """One header line of `bytes` bytes (default 1 MiB, max 16 MiB)."""
        size = self.int_arg("bytes", 1 << 20, 16 << 20)
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Huge: ")
        for start in range(0, size, 1 << 16):
            self.raw(b"a" * min(1 << 16, size - start))
        self.raw(b"\r\nContent-Length: 2\r\n\r\nok")

    def s_many_headers(self):
        """`count` header lines (default 100,000, max 1,000,000)."""
        count = self.int_arg("count", 100_000, 1_000_000)
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
        batch = []
        for i in range(count):
            batch.append(b"X-Header-%d: value-%d\r\n" % (i, i))
            if len(batch) == 1000:
                self.raw(b"".join(batch))
                batch = []
        self.raw(b"".join(batch) + b"Content-Length: 2\r\n\r\nok")

    def s_endless(self):
        """A body without a length that never ends (until the client closes or `max_ms`)."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n")
        piece = b"e" * (1 << 16)
        end = self.deadline()
        while time.monotonic() < end:
            self.raw(piece)

    def s_slow_body(self):
        """Content-Length: 1000, then one byte every `interval_ms` (default 500)."""
        interval = self.int_arg("interval_ms", 500, 10_000) / 1000
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
        end = self.deadline()
        for _ in range(1000):
            if time.monotonic() >= end:
                break
            self.raw(b"s")
            time.sleep(interval)

    def s_garbage_status(self):
        """A status line that is not HTTP at all."""
        self.raw(b"GARBAGE 200 WHAT\r\nContent-Length: 2\r\n\r\nok")

    def s_http09(self):
        """An HTTP/0.9 reply: the body alone, no status line, no headers."""
        self.raw(b"just a body, as in 1991\n")

    def s_status_000(self):
        """Status code 000."""
        self.raw(b"HTTP/1.1 000 Nothing\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")

    def s_two_content_lengths(self):
        """Two different Content-Length headers (RFC 9112 §6.3: unrecoverable)."""
        self.raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello, ")

    def s_redirect_loop(self):
        """A redirect to itself."""
        self.raw(b"HTTP/1.1 302 Found\r\nLocation: /redirect-loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    def s_redirect_file(self):
        """A redirect to a file:// URL (a client must not follow it)."""
        self.raw(b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Courier's misbehaving test server (127.0.0.1 only)")
    p.add_argument("--port", type=int, default=0, help="default 0: a free port")
    p.add_argument("--port-file", help="the chosen port is written here once listening")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    remove_stale(args.port_file)
    Handler.verbose = args.verbose
    return serve([(Server(("127.0.0.1", args.port), Handler), "http", args.port_file)])


if __name__ == "__main__":
    sys.exit(main())
