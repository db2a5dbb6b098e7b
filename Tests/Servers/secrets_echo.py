#!/usr/bin/env python3
"""Echo endpoints for the secret canary suite (Tests/IntegrationTests/Secrets/).

Each endpoint hands a value back to Courier in one of the shapes a secret can take on its
way into an output: echoed headers and bodies (UTF-8 or ASCII-only JSON), a cookie the
client never declared, a `Location` header, a body where the value sits at a chosen byte
offset, and Unicode-altered copies (NFD, a trailing combining mark); and echoes re-encoded the
way other servers write them (werkzeug/Flask, Go, .NET) and in a matrix of encodings.

Start-up contract: Demo/loopback.py (see Tests/Servers/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import threading
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import remove_stale, serve  # noqa: E402  (the shared start-up contract)
# The encodings the leak search looks for are the ones these echoes write.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from secret_forms import dotnet_json_string, go_json_string, matrix_variants  # noqa: E402

MAX_BODY = 16 * 1024 * 1024
MAX_SIZE = 1024 * 1024

_stash: dict[str, str] = {}
_stash_lock = threading.Lock()


def json_leaves(value, path="json"):
    """Every string leaf of a JSON value, with a dotted path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from json_leaves(item, f"{path}[{index}]")
    elif isinstance(value, str):
        yield path, value


def styled_json(value, string) -> str:
    """`value` (dicts, lists, strings) as JSON whose strings are written by `string`."""
    if isinstance(value, dict):
        return "{" + ",".join(f'"{string(k)}":{styled_json(v, string)}' for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(styled_json(v, string) for v in value) + "]"
    return '"' + string(value) + '"'


def parsed_json(body: bytes):
    """The body as JSON, or None: a JSON body is then echoed once escaped, as a server would."""
    try:
        return json.loads(body) if body else None
    except ValueError:
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "courier-secrets-echo"
    verbose = False
    timeout = 120

    def log_message(self, fmt, *args):
        if self.verbose:
            super().log_message(fmt, *args)

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    # MARK: - plumbing

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            raise ValueError("bad Content-Length")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(data)
                data += self.rfile.read(size)
                self.rfile.readline()
                if len(data) > MAX_BODY:
                    raise ValueError("body too large")
        return self.rfile.read(length) if length else b""

    def send(self, status: int, body: bytes, content_type: str, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status: int, value, ascii_only: bool = False, headers=()):
        body = json.dumps(value, ensure_ascii=ascii_only).encode()
        self.send(status, body, "application/json", headers)

    def query(self) -> dict[str, list[str]]:
        return parse_qs(self.utf8(urlsplit(self.path).query), keep_blank_values=True)

    @staticmethod
    def utf8(text: str) -> str:
        """http.server reads the request line and headers as Latin-1: show UTF-8 as sent."""
        return text.encode("latin-1", errors="replace").decode("utf-8", errors="replace")

    def param(self, name: str, default: str | None = None) -> str | None:
        values = self.query().get(name)
        return values[0] if values else default

    def stashed(self) -> str | None:
        with _stash_lock:
            return _stash.get(self.param("key") or "")

    # MARK: - dispatch

    def handle_any(self):
        try:
            body = self.read_body()
        except ValueError as error:
            return self.send_json(400, {"error": str(error)})
        path = urlsplit(self.path).path
        routes = {
            "/__stash": self.stash,
            "/echo": self.echo,
            "/digest-echo": self.digest_echo,
            "/stash/json": self.stash_json,
            "/stash/cookie": self.stash_cookie,
            "/reflect": self.reflect,
            "/location": self.location,
            "/echo-style/werkzeug": self.echo_werkzeug,
            "/echo-style/go": lambda body: self.echo_styled(body, go_json_string),
            "/echo-style/dotnet": lambda body: self.echo_styled(body, dotnet_json_string),
            "/echo-matrix": self.echo_matrix,
            "/health": lambda body: self.send_json(200, {"status": "ok"}),
        }
        # `/echo/<anything>`: a value in the path is echoed too.
        route = routes.get("/echo" if path.startswith("/echo/") else path)
        if route is None:
            return self.send_json(404, {"error": f"unknown path {path}"})
        try:
            route(body)
        except (ValueError, KeyError) as error:
            self.send_json(400, {"error": str(error)})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any

    # MARK: - endpoints

    def stash(self, body: bytes):
        """`GET /__stash?key=K&value=V`: remember V (the test harness calls this, never Courier)."""
        key, value = self.param("key"), self.param("value")
        if not key or value is None:
            raise ValueError("key and value are required")
        with _stash_lock:
            _stash[key] = value
        self.send_json(200, {"stored": key})

    def echo(self, body: bytes):
        """`ANY /echo[/...][?ascii=1]`: the request as JSON (`json`: the body parsed, or null);
        `ascii=1` writes `\\u00e4` escapes."""
        self.send_json(200, {
            "method": self.command,
            "path": urlsplit(self.path).path,
            "raw_path": self.utf8(self.path),
            "query": self.query(),
            "headers": [[name, self.utf8(value)] for name, value in self.headers.items()],
            "body": body.decode("utf-8", errors="replace"),
            "json": parsed_json(body),
        }, ascii_only=self.param("ascii") == "1")

    def digest_echo(self, body: bytes):
        """`ANY /digest-echo`: a Digest challenge (RFC 7616) until the request carries
        `Authorization: Digest …`, then `/echo` (unverified: what matters is that the echoed
        `response=`, computed from the secret password, is masked)."""
        if not (self.headers.get("Authorization") or "").lower().startswith("digest "):
            challenge = 'Digest realm="canary", nonce="0123456789abcdef", qop="auth", algorithm=SHA-256'
            return self.send_json(401, {"error": "digest credentials required"}, headers=[("WWW-Authenticate", challenge)])
        self.echo(body)

    def stash_json(self, body: bytes):
        """`GET /stash/json?key=K`: the stashed text as an `application/json` body."""
        value = self.stashed()
        if value is None:
            raise KeyError("nothing stashed under that key")
        self.send(200, value.encode(), "application/json")

    def stash_cookie(self, body: bytes):
        """`GET /stash/cookie?key=K&name=N`: `Set-Cookie: N=<stashed>; Path=/`."""
        value = self.stashed()
        if value is None:
            raise KeyError("nothing stashed under that key")
        name = self.param("name", "session")
        self.send_json(200, {"set": name}, headers=[("Set-Cookie", f"{name}={value}; Path=/")])

    def reflect(self, body: bytes):
        """`ANY /reflect?size=M&offset=N&form=plain|nfd|combining`: the request body (a secret)
        transformed by `form` and placed at byte `offset` of an M-byte `text/plain` body padded
        with `.` (the body is longer than M when the value does not fit)."""
        form = self.param("form", "plain")
        value = body.decode("utf-8")
        if form == "nfd":
            value = unicodedata.normalize("NFD", value)
        elif form == "combining":
            value = value + "\u0301"
        elif form != "plain":
            raise ValueError(f"unknown form {form}")
        size = min(int(self.param("size", "0")), MAX_SIZE)
        offset = min(int(self.param("offset", "0")), MAX_SIZE)
        encoded = value.encode()
        out = b"." * offset + encoded
        out += b"." * max(0, size - len(out))
        self.send(200, out, "text/plain; charset=utf-8")

    def received(self, body: bytes) -> dict:
        """What the request carried, decoded: query, form or JSON body leaves (or the body as
        text), and headers."""
        values = {"query": {k: v[0] for k, v in self.query().items()}, "body": {}, "headers": {}}
        content_type = self.headers.get("Content-Type", "")
        text = body.decode("utf-8", errors="replace")
        if content_type.startswith("application/x-www-form-urlencoded"):
            values["body"] = {k: v[0] for k, v in parse_qs(text, keep_blank_values=True).items()}
        elif parsed_json(body) is not None:
            values["body"] = dict(json_leaves(parsed_json(body)))
        elif text:
            values["body"] = {"text": text}
        values["headers"] = {name: self.utf8(value) for name, value in self.headers.items()}
        return values

    def echo_werkzeug(self, body: bytes):
        """`ANY /echo-style/werkzeug`: the request as a Flask app echoes it: `url` as werkzeug
        re-quotes it (`/ : @` kept, the space and `& = +` encoded), and the values re-quoted
        the same way, in ASCII-only JSON."""
        values = self.received(body)
        requote = lambda text: quote(text, safe="/:@")  # noqa: E731
        query = "&".join(f"{requote(k)}={requote(v)}" for k, v in values["query"].items())
        url = f"http://{self.headers.get('Host', '')}{requote(urlsplit(self.path).path)}" + (f"?{query}" if query else "")
        self.send_json(200, {
            "url": url,
            "args": {k: requote(v) for k, v in values["query"].items()},
            "form": {k: requote(v) for k, v in values["body"].items()},
            "headers": {k: requote(v) for k, v in values["headers"].items()},
        }, ascii_only=True)

    def echo_styled(self, body: bytes, string):
        """`ANY /echo-style/go|dotnet`: the request's values as JSON written the way Go's
        encoding/json (`\\u0026`, `\\u003c`, `\\u003e`) or .NET's System.Text.Json (also `\\u0027`,
        `\\u002B`, `\\u0022`, non-ASCII, upper-case hex) write it by default."""
        self.send(200, styled_json(self.received(body), string).encode(), "application/json; charset=utf-8")

    def echo_matrix(self, body: bytes):
        """`POST /echo-matrix?part=N&size=S`: the body (a secret) re-encoded in the variants
        N·S to N·S+S−1 of the encoding matrix (Tests/Support/secret_forms.py), one per line,
        `text/plain`; 416 past the last."""
        variants = [text for _, text in matrix_variants(body.decode("utf-8"))]
        size = max(1, int(self.param("size", "10")))
        part = int(self.param("part", "0"))
        chosen = variants[part * size:(part + 1) * size]
        if not chosen:
            return self.send_json(416, {"variants": len(variants)})
        self.send(200, "\n".join(chosen).encode(), "text/plain; charset=utf-8", headers=[("X-Variants", str(len(variants)))])

    def location(self, body: bytes):
        """`ANY /location?...`: `302` to `/echo?<the same raw query>` (the value echoed in `Location`)."""
        raw_query = urlsplit(self.path).query
        self.send_json(302, {"redirect": True}, headers=[("Location", f"/echo?{raw_query}")])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    remove_stale(args.port_file)
    Handler.verbose = args.verbose
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    return serve([(server, "http", args.port_file)])


if __name__ == "__main__":
    sys.exit(main())
