#!/usr/bin/env python3
"""Courier integration-test server (Python 3.11 standard library only, 127.0.0.1 only).

    python3 Tests/Servers/testserver.py --port-file PATH [--port 0]
        [--tls-cert CERT --tls-key KEY [--client-ca CA [--client-cert-optional]] [--tls-min 1.2|1.3]]
        [--http-port-file PATH]   # with TLS: also serve plain HTTP on a second free port
        [--verbose]

Writes the port to --port-file once listening (atomically) and prints
`listening on http(s)://127.0.0.1:PORT` (flushed). SIGTERM/SIGINT stop it cleanly (exit 0).

Endpoints: see Tests/Servers/README.md (and the `h_*` methods below).
"""

from __future__ import annotations

import argparse
import base64
import codecs
import gzip
import hashlib
import hmac
import json
import os
import re
import secrets
import select
import socket
import ssl
import subprocess
import sys
import threading
import time
import zlib
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import remove_stale, serve  # noqa: E402  (the demo's start-up contract)

MAX_BUFFERED_BODY = 256 * 1024 * 1024  # /echo and friends buffer the body; /discard and /multipart stream
CHUNK = 1024 * 1024
BASIC_USER, BASIC_PASSWORD = "demo", "secret"
# /digest/<algorithm> (RFC 7616): the credentials, and the nonces handed out (a nonce the
# server never issued is refused, as a real server refuses a replayed or made-up one).
DIGEST_USER, DIGEST_PASSWORD, DIGEST_REALM = "demo", "digest-pass-7616", "courier-digest"
DIGEST_ALGORITHMS = {"md5": ("MD5", hashlib.md5), "sha256": ("SHA-256", hashlib.sha256)}
DIGEST_NONCES: set = set()
DIGEST_LOCK = threading.Lock()
DIGEST_PARAM = re.compile(r'\s*([A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))\s*,?')
LOGIN_USER, LOGIN_PASSWORD = "demo", "secret"
CLIENT_ID, CLIENT_SECRET = "courier", "secret"


class BodyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ClientGone(Exception):
    pass


# ---------------------------------------------------------------------------
# shared state


class State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.flaky: dict[str, int] = {}
        self.tokens: dict[str, float] = {}  # access token -> expiry (monotonic)
        self.refresh_tokens: dict[str, str] = {}  # refresh token -> user
        self.counts = {"login": 0, "refresh": 0, "protected_ok": 0, "protected_401": 0}
        self.json_cache: dict[int, bytes] = {}

    def issue(self, user: str, ttl: float, refresh: str | None = None) -> dict:
        token = secrets.token_urlsafe(24)
        refresh = refresh or secrets.token_urlsafe(24)
        with self.lock:
            self.tokens[token] = time.monotonic() + ttl
            self.refresh_tokens[refresh] = user
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": ttl if ttl != int(ttl) else int(ttl),
            "refresh_token": refresh,
        }

    def json_doc(self, n: int) -> bytes:
        with self.lock:
            cached = self.json_cache.get(n)
        if cached is not None:
            return cached
        # price = ((i * 7919) % 100000) / 100 + 0.5: deterministic, always with a fraction
        items = ", ".join([
            '{"id": %d, "name": "item-%d", "price": %r}' % (i, i, ((i * 7919) % 100000) / 100 + 0.5)
            for i in range(1, n + 1)
        ])
        doc = ('{"count": %d, "items": [%s]}\n' % (n, items)).encode()
        with self.lock:
            if len(self.json_cache) > 4:
                self.json_cache.clear()
            self.json_cache[n] = doc
        return doc


STATE = State()


class JWTKeys:
    """An RSA and a P-256 key for `/jwt/<kind>?alg=RS256|ES256`, made with the `openssl` CLI on
    first use (Python's standard library cannot sign with them) and kept for the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._dir: str | None = None

    def _keys(self) -> str:
        with self._lock:
            if self._dir is None:
                import tempfile
                directory = tempfile.mkdtemp(prefix="courier-jwt-")
                subprocess.run(["openssl", "genrsa", "-out", os.path.join(directory, "rsa.pem"), "2048"],
                               check=True, capture_output=True)
                subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout",
                                "-out", os.path.join(directory, "ec.pem")], check=True, capture_output=True)
                self._dir = directory
            return self._dir

    @staticmethod
    def kid(alg: str) -> str:
        return "rsa-1" if alg == "RS256" else "ec-1"

    def sign(self, alg: str, data: bytes) -> bytes:
        key = os.path.join(self._keys(), "rsa.pem" if alg == "RS256" else "ec.pem")
        signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key], input=data,
                                   check=True, capture_output=True).stdout
        if alg == "RS256":
            return signature
        # openssl writes ECDSA-Sig-Value (DER); a JWS carries r || s, 32 bytes each (RFC 7518 §3.4).
        i = 2 if signature[1] < 0x80 else 3
        r_len = signature[i + 1]
        r = signature[i + 2:i + 2 + r_len]
        j = i + 2 + r_len
        s = signature[j + 2:j + 2 + signature[j + 1]]
        return r.lstrip(b"\0").rjust(32, b"\0") + s.lstrip(b"\0").rjust(32, b"\0")

    def jwks(self) -> dict:
        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        directory = self._keys()
        modulus = subprocess.run(["openssl", "rsa", "-in", os.path.join(directory, "rsa.pem"), "-noout", "-modulus"],
                                 check=True, capture_output=True, text=True).stdout.strip().split("=", 1)[1]
        point = subprocess.run(["openssl", "ec", "-in", os.path.join(directory, "ec.pem"), "-pubout", "-outform", "DER"],
                               check=True, capture_output=True).stdout[-65:]
        return {"keys": [
            {"kty": "RSA", "kid": "rsa-1", "use": "sig", "alg": "RS256", "n": b64(bytes.fromhex(modulus)), "e": "AQAB"},
            {"kty": "EC", "kid": "ec-1", "use": "sig", "crv": "P-256", "x": b64(point[1:33]), "y": b64(point[33:])},
        ]}


JWT_KEYS = JWTKeys()


def pattern_bytes(offset: int, size: int) -> bytes:
    """The /bytes payload: byte i of the response is i % 256."""
    start = offset % 256
    reps = (start + size) // 256 + 1
    return (bytes(range(256)) * reps)[start:start + size]


PATTERN_1M = pattern_bytes(0, CHUNK)


# ---------------------------------------------------------------------------
# request body readers


class BodyReader:
    """Reads a request body (Content-Length or chunked) in pieces."""

    def __init__(self, rfile, headers) -> None:
        self.rfile = rfile
        te = (headers.get("Transfer-Encoding") or "").lower()
        self.chunked = "chunked" in te
        self.remaining = 0
        self.done = False
        self.total = 0
        if not self.chunked:
            raw = headers.get("Content-Length")
            try:
                self.remaining = int(raw) if raw else 0
            except ValueError:
                raise BodyError(400, "bad Content-Length") from None
            if self.remaining < 0:
                raise BodyError(400, "bad Content-Length")
            self.done = self.remaining == 0
        self.chunk_left = 0

    def read(self, size: int = CHUNK) -> bytes:
        """Up to `size` bytes; b"" at the end of the body."""
        if self.done:
            return b""
        if not self.chunked:
            data = self.rfile.read1(min(size, self.remaining)) if hasattr(self.rfile, "read1") \
                else self.rfile.read(min(size, self.remaining))
            if not data:
                raise ClientGone("body ended early")
            self.remaining -= len(data)
            self.done = self.remaining == 0
            self.total += len(data)
            return data
        if self.chunk_left == 0:
            line = self.rfile.readline(65537)
            if not line:
                raise ClientGone("chunked body ended early")
            try:
                self.chunk_left = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise BodyError(400, "bad chunk size line") from None
            if self.chunk_left == 0:
                while True:
                    trailer = self.rfile.readline(65537)
                    if trailer in (b"\r\n", b"\n", b""):
                        break
                self.done = True
                return b""
        data = self.rfile.read1(min(size, self.chunk_left)) if hasattr(self.rfile, "read1") \
            else self.rfile.read(min(size, self.chunk_left))
        if not data:
            raise ClientGone("chunked body ended early")
        self.chunk_left -= len(data)
        if self.chunk_left == 0:
            self.rfile.readline(3)  # CRLF after the chunk data
        self.total += len(data)
        return data

    def __iter__(self):
        while True:
            data = self.read()
            if not data:
                return
            yield data

    def read_all(self, limit: int = MAX_BUFFERED_BODY) -> bytes:
        out = bytearray()
        for data in self:
            out += data
            if len(out) > limit:
                raise BodyError(413, "request body too large for this endpoint (use /discard)")
        return bytes(out)


# ---------------------------------------------------------------------------
# multipart/form-data, streamed


def parse_header_params(value: str) -> tuple[str, dict]:
    """`form-data; name="a"; filename="b\\"c"` -> ("form-data", {...}). Handles quoted strings
    with backslash escapes and RFC 5987 `name*=UTF-8''...` values."""
    from urllib.parse import unquote

    pos = 0
    n = len(value)

    def token_until(chars):
        nonlocal pos
        start = pos
        while pos < n and value[pos] not in chars:
            pos += 1
        return value[start:pos].strip()

    main = token_until(";")
    params: dict[str, str] = {}
    while pos < n:
        pos += 1  # skip ';'
        key = token_until("=;").lower()
        if pos < n and value[pos] == "=":
            pos += 1
            while pos < n and value[pos] in " \t":
                pos += 1
            if pos < n and value[pos] == '"':
                pos += 1
                buf = []
                while pos < n and value[pos] != '"':
                    if value[pos] == "\\" and pos + 1 < n:
                        pos += 1
                    buf.append(value[pos])
                    pos += 1
                pos += 1  # closing quote
                val = "".join(buf)
                token_until(";")
            else:
                val = token_until(";")
        else:
            val = ""
        if key.endswith("*"):
            charset, _, rest = val.partition("'")
            _, _, encoded = rest.partition("'")
            try:
                val = unquote(encoded, encoding=charset or "utf-8", errors="strict")
            except (LookupError, UnicodeDecodeError):
                val = unquote(encoded)
            key = key[:-1]
            params[key] = val  # the extended form wins
        elif key and key not in params:
            params[key] = val
    return main.lower(), params


class MultipartParser:
    """Streaming multipart/form-data parser: feed() body pieces, then finish().
    Keeps at most one boundary's worth of data plus one piece in memory."""

    VALUE_LIMIT = 4096  # parts without a filename up to this size also report their `value`

    def __init__(self, boundary: bytes) -> None:
        self.delim = b"\r\n--" + boundary
        self.buf = b"\r\n"  # so the first boundary also matches `\r\n--boundary`
        self.state = "preamble"
        self.parts: list[dict] = []
        self.current: dict | None = None
        self.hasher = None
        self.value = bytearray()

    def _start_part(self, header_block: bytes) -> None:
        headers = []
        for line in header_block.split(b"\r\n"):
            if not line:
                continue
            name, sep, value = line.partition(b":")
            if not sep:
                raise BodyError(400, f"malformed part header line: {line[:80]!r}")
            headers.append((name.decode("latin-1").strip(), value.decode("utf-8", "replace").strip()))
        disposition = next((v for k, v in headers if k.lower() == "content-disposition"), None)
        if disposition is None:
            raise BodyError(400, "part without Content-Disposition")
        kind, params = parse_header_params(disposition)
        ctype = next((v for k, v in headers if k.lower() == "content-type"), None)
        self.current = {
            "name": params.get("name"),
            "filename": params.get("filename"),
            "content_type": ctype,
            "size": 0,
            "sha256": None,
            "headers": [[k, v] for k, v in headers],
        }
        self.hasher = hashlib.sha256()
        self.value = bytearray()

    def _data(self, data: bytes) -> None:
        if not data:
            return
        self.current["size"] += len(data)
        self.hasher.update(data)
        if len(self.value) <= self.VALUE_LIMIT:
            self.value += data[: self.VALUE_LIMIT + 1 - len(self.value)]

    def _end_part(self) -> None:
        part = self.current
        part["sha256"] = self.hasher.hexdigest()
        if part["filename"] is None and part["size"] <= self.VALUE_LIMIT:
            part["value"] = bytes(self.value).decode("utf-8", "replace")
        self.parts.append(part)
        self.current = None

    def feed(self, data: bytes) -> None:
        self.buf += data
        while True:
            if self.state == "preamble":
                i = self.buf.find(self.delim)
                if i < 0:
                    self.buf = self.buf[-len(self.delim):]
                    return
                self.buf = self.buf[i + len(self.delim):]
                self.state = "after_delim"
            if self.state == "after_delim":
                if len(self.buf) < 2:
                    return
                if self.buf[:2] == b"--":
                    self.state = "epilogue"
                    self.buf = b""
                    return
                # transport padding (spaces/tabs) then CRLF
                j = self.buf.find(b"\r\n")
                if j < 0:
                    if len(self.buf) > 1024:
                        raise BodyError(400, "malformed boundary line")
                    return
                if self.buf[:j].strip(b" \t"):
                    raise BodyError(400, "malformed boundary line")
                self.buf = self.buf[j + 2:]
                self.state = "headers"
            if self.state == "headers":
                if self.buf.startswith(b"\r\n"):
                    block, rest = b"", self.buf[2:]
                else:
                    j = self.buf.find(b"\r\n\r\n")
                    if j < 0:
                        if len(self.buf) > 64 * 1024:
                            raise BodyError(400, "part headers too long")
                        return
                    block, rest = self.buf[:j], self.buf[j + 4:]
                self._start_part(block)
                self.buf = rest
                self.state = "data"
            if self.state == "data":
                i = self.buf.find(self.delim)
                if i < 0:
                    keep = len(self.delim) - 1
                    if len(self.buf) > keep:
                        self._data(self.buf[:-keep])
                        self.buf = self.buf[-keep:]
                    return
                self._data(self.buf[:i])
                self._end_part()
                self.buf = self.buf[i + len(self.delim):]
                self.state = "after_delim"
            if self.state == "epilogue":
                self.buf = b""
                return

    def finish(self) -> list[dict]:
        if self.state != "epilogue":
            raise BodyError(400, f"multipart body ended early (in state {self.state}, "
                                 f"{len(self.parts)} complete parts)")
        return self.parts


# ---------------------------------------------------------------------------
# the handler


def qint(query: dict, name: str, default: int | None = None, lo: int | None = None, hi: int | None = None):
    if name not in query:
        if default is None:
            raise BodyError(400, f"query parameter {name!r} is required")
        return default
    try:
        value = int(query[name][-1])
    except ValueError:
        raise BodyError(400, f"query parameter {name!r} must be an integer") from None
    if lo is not None and value < lo:
        raise BodyError(400, f"query parameter {name!r} must be >= {lo}")
    if hi is not None and value > hi:
        raise BodyError(400, f"query parameter {name!r} must be <= {hi}")
    return value


def accepts(header: str | None, coding: str) -> bool:
    """Does an Accept-Encoding header allow `coding` (q > 0)?"""
    if not header:
        return False
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        if name not in (coding, "*"):
            continue
        q = 1.0
        for p in params.split(";"):
            k, _, v = p.strip().partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else small responses wait ~40 ms for delayed ACKs
    server_version = "CourierTestServer/1.0"
    timeout = 120  # idle keep-alive connections are closed after this many seconds
    verbose = False

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002
        if self.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    # ---- response helpers ----------------------------------------------

    def begin(self, status: int, headers=(), length: int | None = None, ctype: str | None = None) -> None:
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for name, value in headers:
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()

    def send_bytes(self, status: int, data: bytes, ctype: str | None = "application/json", headers=()) -> None:
        if status in (204, 304) or status < 200:
            self.begin(status, headers)
            return
        self.begin(status, headers, len(data), ctype)
        if self.command != "HEAD" and data:
            self.wfile.write(data)

    def send_json(self, status: int, payload, headers=()) -> None:
        self.send_bytes(status, json.dumps(payload).encode() + b"\n", "application/json", headers)

    def fail(self, status: int, message: str, headers=(), **extra) -> None:
        self.send_json(status, {"error": message, **extra}, headers)

    # ---- body helpers --------------------------------------------------

    def body_reader(self) -> BodyReader:
        if self._reader is None:
            self._reader = BodyReader(self.rfile, self.headers)
        return self._reader

    def body(self) -> bytes:
        if self._body is None:
            self._body = self.body_reader().read_all()
        return self._body

    def json_body(self):
        raw = self.body()
        ctype = (self.headers.get("Content-Type") or "").lower()
        # `curl -d '{...}'` labels JSON as a form: a body that starts like JSON is read as JSON
        if "application/x-www-form-urlencoded" in ctype and not raw.lstrip().startswith((b"{", b"[")):
            return {k: v[-1] for k, v in parse_qs(raw.decode("utf-8", "replace"), keep_blank_values=True).items()}
        try:
            return json.loads(raw) if raw.strip() else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BodyError(400, "malformed JSON body") from None

    def drain(self) -> None:
        """Consume what the handler did not read, so the connection can be reused."""
        try:
            reader = self.body_reader()
            if reader.done:
                return
            if not reader.chunked and reader.remaining > 64 * 1024 * 1024:
                self.close_connection = True
                return
            for _ in reader:
                pass
        except (BodyError, ClientGone, OSError):
            self.close_connection = True

    # ---- dispatch ------------------------------------------------------

    ROUTES = [
        (r"/echo", "*", "echo"),
        (r"/status/(?P<code>\d+)", "*", "status"),
        (r"/delay", "*", "delay"),
        (r"/concurrency", "GET", "concurrency"),
        (r"/stall", "GET", "stall"),
        (r"/flaky", "*", "flaky"),
        (r"/flaky/reset", "*", "flaky_reset"),
        (r"/json", "GET", "json"),
        (r"/bytes", "GET", "bytes"),
        (r"/charset", "GET", "charset"),
        (r"/truncated", "GET", "truncated"),
        (r"/headers", "GET", "headers"),
        (r"/cookies/set", "GET", "cookies_set"),
        (r"/cookies/attributes", "GET", "cookies_attributes"),
        (r"/cookies/delete", "GET", "cookies_delete"),
        (r"/cookies", "GET", "cookies"),
        (r"/redirect/(?P<n>\d+)", "*", "redirect"),
        (r"/redirect-to", "*", "redirect_to"),
        (r"/gzip", "GET", "gzip"),
        (r"/deflate", "GET", "deflate"),
        (r"/multipart", "POST", "multipart"),
        (r"/discard", "*", "discard"),
        (r"/auth/login", "POST", "login"),
        (r"/auth/refresh", "POST", "refresh"),
        (r"/oauth/token", "POST", "oauth_token"),
        (r"/auth/stats", "GET", "auth_stats"),
        # workflow auth flow (issue 12): per-key logins and token uses
        (r"/flow/token", "POST", "flow_token"),
        (r"/flow/protected", "*", "flow_protected"),
        (r"/flow/stats", "GET", "flow_stats"),
        (r"/protected", "*", "protected"),
        (r"/basic", "*", "basic"),
        (r"/digest/(?P<algorithm>md5|sha256)", "*", "digest"),
        (r"/health", "GET", "health"),
        # Retries and polling (issue 12): per-key counters, so parallel tests never collide.
        (r"/retry/after-date", "*", "retry_after_date"),
        (r"/jobs/(?P<key>[A-Za-z0-9_.-]+)", "GET", "job"),
        (r"/jwt/(?P<kind>[a-z_]+)", "GET", "jwt"),
        (r"/jwks", "GET", "jwks"),
    ]
    COMPILED = [(re.compile("^" + p + "/?$"), m, h) for p, m, h in ROUTES]

    def dispatch(self) -> None:
        self._reader = None
        self._body = None
        url = urlsplit(self.path)
        if url.scheme:  # absolute-form request target (e.g. sent through a proxy)
            self.raw_path = url.path + ("?" + url.query if url.query else "")
        else:
            self.raw_path = self.path
        self.url_path = url.path or "/"
        self.query = parse_qs(url.query, keep_blank_values=True)
        try:
            for pattern, method, name in self.COMPILED:
                match = pattern.match(self.url_path)
                if not match:
                    continue
                if method != "*" and self.command not in (method, "HEAD" if method == "GET" else method):
                    self.drain()
                    self.fail(405, f"{self.command} not allowed here", [("Allow", method)])
                    break
                getattr(self, "h_" + name)(**match.groupdict())
                break
            else:
                self.drain()
                self.fail(404, "no such endpoint", path=self.url_path)
            self.drain()
        except BodyError as exc:
            self.close_connection = True
            try:
                self.fail(exc.status, str(exc))
            except OSError:
                pass
        except (ClientGone, BrokenPipeError, ConnectionResetError, ssl.SSLError, TimeoutError):
            self.close_connection = True
        except Exception as exc:
            self.close_connection = True
            try:
                self.fail(500, f"internal error: {type(exc).__name__}: {exc}")
            except OSError:
                pass

    def __getattr__(self, name):
        if name.startswith("do_"):  # every method token (PURGE, PROPFIND, ...) is dispatched
            return self.dispatch
        raise AttributeError(name)

    # ---- endpoints -----------------------------------------------------

    def h_health(self):
        self.send_json(200, {"status": "ok"})

    def client_cn(self):
        conn = self.connection
        if not isinstance(conn, ssl.SSLSocket):
            return None
        cert = conn.getpeercert()
        if not cert:
            return None
        for rdn in cert.get("subject", ()):
            for key, value in rdn:
                if key == "commonName":
                    return value
        return None

    def h_echo(self):
        raw = self.body()
        ctype = self.headers.get("Content-Type")
        try:
            parsed = json.loads(raw) if raw.strip() else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            parsed = None
        payload = {
            "method": self.command,
            "path": self.url_path,
            "raw_path": self.raw_path,
            "query": self.query,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": raw.decode("utf-8", "replace"),
            "body_base64": base64.b64encode(raw).decode(),
            "json": parsed,
            "content_type": ctype,
            "http_version": self.request_version,
            "chunked": self.body_reader().chunked,
            "scheme": "https" if isinstance(self.connection, ssl.SSLSocket) else "http",
            "client_cn": self.client_cn(),
        }
        if isinstance(self.connection, ssl.SSLSocket):
            payload["tls_version"] = self.connection.version()
        status = 200
        if self.headers.get("X-Echo-Status"):
            try:
                status = int(self.headers["X-Echo-Status"])
            except ValueError:
                raise BodyError(400, "X-Echo-Status must be an integer") from None
            if not 200 <= status <= 599:
                raise BodyError(400, "X-Echo-Status must be from 200 to 599")
        self.send_json(status, payload)

    def h_status(self, code):
        status = int(code)
        if not 200 <= status <= 599:
            return self.fail(400, "status must be from 200 to 599")
        headers = []
        if "retry_after" in self.query:
            headers.append(("Retry-After", self.query["retry_after"][-1]))
        if status == 401:
            headers.append(("WWW-Authenticate", 'Bearer realm="courier-test"'))
        if 300 <= status < 400 and "location" in self.query:
            headers.append(("Location", self.query["location"][-1]))
        if "body" in self.query:
            ctype = self.query.get("content_type", ["text/plain; charset=utf-8"])[-1]
            return self.send_bytes(status, self.query["body"][-1].encode(), ctype, headers)
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = ""
        self.send_json(status, {"status": status, "reason": reason}, headers)

    def h_delay(self):
        ms = qint(self.query, "ms", 1000, 0, 60000)
        group = self.query.get("group", [None])[-1]
        if group is None:
            time.sleep(ms / 1000)
            self.send_json(200, {"delayed_ms": ms})
            return
        # Counted: how many requests of this group were in flight at once (see /concurrency).
        with CONCURRENCY_LOCK:
            entry = CONCURRENCY.setdefault(group, {"in_flight": 0, "peak": 0, "total": 0})
            entry["in_flight"] += 1
            entry["total"] += 1
            entry["peak"] = max(entry["peak"], entry["in_flight"])
        try:
            time.sleep(ms / 1000)
        finally:
            with CONCURRENCY_LOCK:
                entry["in_flight"] -= 1
        self.send_json(200, {"delayed_ms": ms, "group": group})

    def h_concurrency(self):
        """The peak number of `/delay?group=G` requests in flight at once, and how many came."""
        group = self.query.get("group", [""])[-1]
        with CONCURRENCY_LOCK:
            entry = dict(CONCURRENCY.get(group, {"in_flight": 0, "peak": 0, "total": 0}))
        self.send_json(200, entry)

    def wait_for_client_close(self, seconds: float) -> bool:
        """Sleep up to `seconds`, returning early (True) when the client closes the connection."""
        sock = self.connection
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([sock], [], [], min(left, 0.5))
            if readable:
                try:
                    if isinstance(sock, ssl.SSLSocket):
                        data = sock.recv(1)
                    else:
                        data = sock.recv(1, socket.MSG_PEEK)
                except (OSError, ssl.SSLError):
                    return True
                if not data:
                    return True
                if not isinstance(sock, ssl.SSLSocket):
                    # the client sent something (a pipelined request?): just keep waiting
                    time.sleep(min(left, 0.5))

    def h_stall(self):
        """Headers (Content-Length: 1024), then `partial` body bytes, then nothing until the
        client gives up or `max_ms` (default and cap 30000) passes; then the connection is closed."""
        max_ms = qint(self.query, "max_ms", 30000, 0, 30000)
        partial = qint(self.query, "partial", 0, 0, 1023)
        self.close_connection = True
        self.begin(200, [], 1024, "application/octet-stream")
        if partial:
            self.wfile.write(b"x" * partial)
        self.wfile.flush()
        self.wait_for_client_close(max_ms / 1000)

    def h_flaky(self):
        key = self.query.get("key", ["default"])[-1]
        fail = qint(self.query, "fail", 2, 0)
        status = qint(self.query, "status", 503, 200, 599)
        with STATE.lock:
            attempt = STATE.flaky.get(key, 0) + 1
            STATE.flaky[key] = attempt
        if attempt <= fail:
            headers = []
            if "retry_after" in self.query:
                headers.append(("Retry-After", self.query["retry_after"][-1]))
            return self.send_json(status, {"key": key, "attempt": attempt, "ok": False}, headers)
        self.send_json(200, {"key": key, "attempt": attempt, "ok": True})

    def h_flaky_reset(self):
        with STATE.lock:
            if "key" in self.query:
                STATE.flaky.pop(self.query["key"][-1], None)
            else:
                STATE.flaky.clear()
        self.send_json(200, {"reset": True})

    # ---- retries and polling (issue 12) --------------------------------

    def h_retry_after_date(self):
        """429 with `Retry-After` as an HTTP date `in` seconds from now, `fail` times per key; then 200."""
        key = "after-date:" + self.query.get("key", ["default"])[-1]
        fail = qint(self.query, "fail", 1, 0)
        seconds = qint(self.query, "in", 2, 0, 3600)
        with STATE.lock:
            attempt = STATE.flaky.get(key, 0) + 1
            STATE.flaky[key] = attempt
        if attempt <= fail:
            import email.utils  # here, not at the top: this block stays self-contained
            when = email.utils.formatdate(time.time() + seconds, usegmt=True)
            return self.send_json(429, {"attempt": attempt, "ok": False}, [("Retry-After", when)])
        self.send_json(200, {"attempt": attempt, "ok": True})

    def h_job(self, key):
        """A job that reports `running` `running` times, then `done` (or `failed` with `?end=failed`)."""
        running = qint(self.query, "running", 2, 0)
        end = self.query.get("end", ["done"])[-1]
        with STATE.lock:
            poll = STATE.flaky.get("job:" + key, 0) + 1
            STATE.flaky["job:" + key] = poll
        state = "running" if poll <= running else end
        payload = {"id": key, "state": state, "polls": poll}
        if state == "done":
            payload["result"] = f"result-of-{key}"
        self.send_json(200, payload)

    JWT_SECRET = "courier-jwt-test-secret-0123456789"
    JWT_HASHES = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}

    def h_jwt(self, kind):
        """`/jwt/<kind>?alg=HS256&secret=S`: {"access_token": a JWT} signed with HMAC (S, or
        JWT_SECRET): `valid` (aud my-api, exp in 10 minutes), `tampered` (its payload swapped
        after signing), `expired` (exp 10 minutes ago), `wrong_audience` (aud other-api)."""
        alg = self.query.get("alg", ["HS256"])[-1]
        secret = self.query.get("secret", [self.JWT_SECRET])[-1].encode()
        if alg not in (*self.JWT_HASHES, "RS256", "ES256") or kind not in ("valid", "tampered", "expired", "wrong_audience"):
            return self.fail(400, "unknown kind or alg")
        now = int(time.time())
        claims = {"sub": "user-42", "iss": "https://auth.example", "aud": ["my-api"], "scope": "read write",
                  "iat": now, "nbf": now - 5, "exp": now + 600}
        if kind == "expired":
            claims["exp"] = now - 600
        if kind == "wrong_audience":
            claims["aud"] = "other-api"

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        header = {"alg": alg, "typ": "JWT"}
        if alg in ("RS256", "ES256"):
            header["kid"] = JWT_KEYS.kid(alg)
        head = b64(json.dumps(header).encode())
        body = b64(json.dumps(claims).encode())
        if alg in self.JWT_HASHES:
            signature = b64(hmac.new(secret, f"{head}.{body}".encode(), self.JWT_HASHES[alg]).digest())
        else:
            signature = b64(JWT_KEYS.sign(alg, f"{head}.{body}".encode()))
        if kind == "tampered":
            body = b64(json.dumps(dict(claims, sub="admin")).encode())
        self.send_json(200, {"access_token": f"{head}.{body}.{signature}", "token_type": "Bearer"})

    def h_jwks(self):
        """The public keys of the RS256 and ES256 tokens of `/jwt/<kind>`, as a JWKS."""
        self.send_json(200, JWT_KEYS.jwks())

    def h_json(self):
        n = qint(self.query, "size", 10, 0, 5_000_000)
        self.send_bytes(200, STATE.json_doc(n))

    def h_bytes(self):
        """N bytes where byte i is i % 256; `chunked=1` uses chunked transfer-encoding."""
        n = qint(self.query, "n", 1024, 0)
        ctype = self.query.get("content_type", ["application/octet-stream"])[-1]
        chunked = self.query.get("chunked", ["0"])[-1] in ("1", "true", "yes")
        if chunked:
            self.begin(200, [("Transfer-Encoding", "chunked")], None, ctype)
        else:
            self.begin(200, [], n, ctype)
        if self.command == "HEAD":
            return
        sent = 0
        while sent < n:
            size = min(CHUNK, n - sent)
            piece = PATTERN_1M if size == CHUNK and sent % 256 == 0 else pattern_bytes(sent, size)
            if chunked:
                self.wfile.write(b"%x\r\n" % size + piece + b"\r\n")
            else:
                self.wfile.write(piece)
            sent += size
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    def h_charset(self):
        """`?text=T&encoding=E`: T encoded with Python's codec E (default latin-1), as
        `text/plain; charset=E` (`?charset=` declares another name, `?content_type=` replaces
        the whole header; `?bom=1` puts the codec's byte order mark first)."""
        text = self.query.get("text", [""])[-1]
        encoding = self.query.get("encoding", ["latin-1"])[-1]
        try:
            data = text.encode(encoding)
        except (LookupError, UnicodeEncodeError) as error:
            return self.fail(400, f"cannot encode the text as {encoding}: {error}")
        if self.query.get("bom", ["0"])[-1] in ("1", "true", "yes"):
            boms = {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
            data = boms.get(codecs.lookup(encoding).name, b"") + data
        charset = self.query.get("charset", [encoding])[-1]
        ctype = self.query.get("content_type", [f"text/plain; charset={charset}"])[-1]
        self.send_bytes(200, data, ctype)

    def h_truncated(self):
        declared = qint(self.query, "declared", 1000, 1)
        sent = qint(self.query, "sent", 10, 0)
        sent = min(sent, declared - 1)
        self.close_connection = True
        self.begin(200, [], declared, "application/json")
        self.wfile.write((b'{"partial": "' + b"x" * sent)[:sent])
        self.wfile.flush()
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def h_headers(self):
        pairs = []
        for name, values in self.query.items():
            for value in values:
                if re.search(r"[\r\n]", name + value) or not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", name):
                    return self.fail(400, f"bad header {name!r}")
                pairs.append((name, value))
        body = json.dumps({"headers": [[k, v] for k, v in pairs]}).encode() + b"\n"
        if any(k.lower() == "content-type" for k, _ in pairs):
            self.send_bytes(200, body, None, pairs)
        else:
            self.send_bytes(200, body, "application/json", pairs)

    def h_cookies_set(self):
        # `max_age=N` is no cookie: it makes the others persistent (`Max-Age=N`), not session cookies.
        max_age = self.query.get("max_age", [None])[-1]
        suffix = f"; Max-Age={int(max_age)}" if max_age is not None else ""
        cookies = {k: v[-1] for k, v in self.query.items() if k != "max_age"}
        headers = [("Set-Cookie", f"{name}={value}; Path=/{suffix}") for name, value in cookies.items()]
        self.send_json(200, {"set": cookies}, headers)

    def h_cookies_attributes(self):
        # Every attribute of RFC 6265 and SameSite, in mixed case, for expect.cookies attribute maps.
        headers = [
            ("Set-Cookie", "session=s-42; Path=/app; Domain=127.0.0.1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; "
                           "Max-Age=3600; Secure; httponly; SameSite=Strict"),
            ("Set-Cookie", "plain=p-1"),
        ]
        self.send_json(200, {"set": ["session", "plain"]}, headers)

    def h_cookies_delete(self):
        headers = [("Set-Cookie", f"{name}=; Path=/; Max-Age=0") for name in self.query]
        self.send_json(200, {"deleted": list(self.query)}, headers)

    def h_cookies(self):
        cookies = {}
        for header in self.headers.get_all("Cookie") or []:
            for item in header.split(";"):
                name, sep, value = item.strip().partition("=")
                if sep and name:
                    cookies[name] = value
        self.send_json(200, {"cookies": cookies})

    def redirect_headers(self, location: str):
        return [("Location", location)]

    def h_redirect(self, n):
        """/redirect/N answers N redirects in a row, ending at /echo. `status` (default 302) and
        `absolute=1` are kept along the chain; `to=URL` makes the last hop go to URL (another
        host or port, loopback only) instead of /echo."""
        n = int(n)
        status = qint(self.query, "status", 302, 300, 399)
        if n <= 0:
            return self.h_echo()
        final = self.query.get("to", [None])[-1]
        if n == 1 and final is not None:
            host = urlsplit(final).hostname
            if host not in ("127.0.0.1", "localhost", "::1"):
                return self.fail(400, "to must be a loopback URL")
            return self.send_json(status, {"redirect_to": final, "remaining": 0}, self.redirect_headers(final))
        target = f"/redirect/{n - 1}" if n > 1 else "/echo"
        _, _, query = self.raw_path.partition("?")
        if query:
            target += "?" + query
        if self.query.get("absolute", ["0"])[-1] in ("1", "true"):
            scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
            target = f"{scheme}://{self.headers.get('Host') or '127.0.0.1:%d' % self.server.server_port}{target}"
        self.send_json(status, {"redirect_to": target, "remaining": n - 1}, self.redirect_headers(target))

    def h_redirect_to(self):
        if "url" not in self.query:
            return self.fail(400, "url is required")
        status = qint(self.query, "status", 302, 300, 399)
        target = self.query["url"][-1]
        self.send_json(status, {"redirect_to": target}, self.redirect_headers(target))

    def compressed(self, coding: str):
        payload = {
            coding + "ped" if coding == "gzip" else coding + "d": True,
            "method": self.command,
            "headers": [[k, v] for k, v in self.headers.items()],
            "text": "The quick brown fox jumps over the lazy dog. " * 20,
        }
        data = json.dumps(payload).encode() + b"\n"
        force = self.query.get("force", ["0"])[-1] in ("1", "true")
        headers = [("Vary", "Accept-Encoding")]
        if force or accepts(self.headers.get("Accept-Encoding"), coding):
            if coding == "gzip":
                data = gzip.compress(data, mtime=0)
            else:
                data = zlib.compress(data)  # HTTP "deflate" is the zlib format (RFC 9110 8.4.1.2)
            headers.append(("Content-Encoding", coding))
        self.send_bytes(200, data, "application/json", headers)

    def h_gzip(self):
        self.compressed("gzip")

    def h_deflate(self):
        self.compressed("deflate")

    def h_multipart(self):
        ctype = self.headers.get("Content-Type") or ""
        kind, params = parse_header_params(ctype)
        if kind != "multipart/form-data" or not params.get("boundary"):
            raise BodyError(400, "Content-Type must be multipart/form-data with a boundary")
        parser = MultipartParser(params["boundary"].encode("latin-1"))
        reader = self.body_reader()
        for piece in reader:
            parser.feed(piece)
        parts = parser.finish()
        self.send_json(200, {"parts": parts, "count": len(parts), "bytes": reader.total})

    def h_discard(self):
        hasher = hashlib.sha256()
        reader = self.body_reader()
        started = time.monotonic()
        for piece in reader:
            hasher.update(piece)
        self.send_json(200, {
            "bytes": reader.total,
            "sha256": hasher.hexdigest(),
            "chunked": reader.chunked,
            "expect_100": (self.headers.get("Expect") or "").lower() == "100-continue",
            "seconds": round(time.monotonic() - started, 3),
        })

    # ---- auth ---------------------------------------------------------

    def token_ttl(self, data) -> float:
        raw = self.query.get("ttl", [None])[-1]
        if raw is None and isinstance(data, dict):
            raw = data.get("ttl")
        if raw is None:
            return 3600
        try:
            ttl = float(raw)
        except (TypeError, ValueError):
            raise BodyError(400, "ttl must be a number of seconds") from None
        return max(ttl, 0)

    def h_login(self):
        """{username: demo, password: secret} (JSON or form) -> tokens; `ttl` (seconds, in the
        body or the query) sets the access token lifetime (default 3600)."""
        data = self.json_body()
        if not isinstance(data, dict) or not isinstance(data.get("username"), str) \
                or not isinstance(data.get("password"), str):
            return self.fail(400, "body must be {username, password}")
        with STATE.lock:
            STATE.counts["login"] += 1
        if data["username"] != LOGIN_USER or data["password"] != LOGIN_PASSWORD:
            return self.fail(401, "invalid credentials")
        tokens = STATE.issue(data["username"], self.token_ttl(data))
        tokens["user"] = {"id": 1, "name": data["username"]}
        self.send_json(200, tokens, [("Cache-Control", "no-store")])

    def h_refresh(self):
        data = self.json_body()
        if not isinstance(data, dict) or not isinstance(data.get("refresh_token"), str):
            return self.fail(400, "body must be {refresh_token}")
        with STATE.lock:
            STATE.counts["refresh"] += 1
            user = STATE.refresh_tokens.get(data["refresh_token"])
        if user is None:
            return self.fail(401, "invalid refresh token")
        # refresh tokens stay valid (no rotation) so tests can refresh repeatedly
        self.send_json(200, STATE.issue(user, self.token_ttl(data), data["refresh_token"]),
                       [("Cache-Control", "no-store")])

    def h_oauth_token(self):
        """OAuth2-style token endpoint (form or JSON): grant_type=client_credentials with
        client_id=courier&client_secret=secret (or Basic auth), grant_type=password with
        username/password, grant_type=refresh_token with refresh_token."""
        data = self.json_body()
        if not isinstance(data, dict):
            return self.fail(400, "invalid_request")
        grant = data.get("grant_type")
        with STATE.lock:
            STATE.counts["login" if grant != "refresh_token" else "refresh"] += 1
        if grant == "client_credentials":
            cid, csecret = data.get("client_id"), data.get("client_secret")
            basic = self.basic_credentials()
            if basic:
                cid, csecret = basic
            if (cid, csecret) != (CLIENT_ID, CLIENT_SECRET):
                return self.fail(401, "invalid_client")
            user = cid
        elif grant == "password":
            if (data.get("username"), data.get("password")) != (LOGIN_USER, LOGIN_PASSWORD):
                return self.fail(400, "invalid_grant")
            user = data["username"]
        elif grant == "refresh_token":
            with STATE.lock:
                user = STATE.refresh_tokens.get(data.get("refresh_token") or "")
            if user is None:
                return self.fail(400, "invalid_grant")
            return self.send_json(200, STATE.issue(user, self.token_ttl(data), data["refresh_token"]),
                                  [("Cache-Control", "no-store")])
        else:
            return self.fail(400, "unsupported_grant_type")
        self.send_json(200, STATE.issue(user, self.token_ttl(data)), [("Cache-Control", "no-store")])

    def h_auth_stats(self):
        with STATE.lock:
            counts = dict(STATE.counts)
            if self.query.get("reset", ["0"])[-1] in ("1", "true"):
                for k in STATE.counts:
                    STATE.counts[k] = 0
        self.send_json(200, counts)

    def h_protected(self):
        auth = self.headers.get("Authorization") or ""
        scheme, _, token = auth.partition(" ")
        token = token.strip()
        expiry = None
        if scheme.lower() == "bearer" and token:
            with STATE.lock:
                expiry = STATE.tokens.get(token)
        now = time.monotonic()
        if expiry is None or now >= expiry:
            with STATE.lock:
                STATE.counts["protected_401"] += 1
            if expiry is None:
                challenge, message = 'Bearer realm="courier-test"', "missing or unknown token"
            else:
                challenge = 'Bearer realm="courier-test", error="invalid_token", error_description="expired"'
                message = "token expired"
            return self.fail(401, message, [("WWW-Authenticate", challenge)])
        with STATE.lock:
            STATE.counts["protected_ok"] += 1
        self.send_json(200, {"ok": True, "user": LOGIN_USER, "expires_in": round(expiry - now, 3)})

    def basic_credentials(self):
        auth = self.headers.get("Authorization") or ""
        scheme, _, value = auth.partition(" ")
        if scheme.lower() != "basic":
            return None
        try:
            user, sep, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError):
            return None
        return (user, password) if sep else None

    # ---- workflow auth flow (issue 12) ----------------------------------
    # Everything is counted per `?key=K`, so tests running at once never see each other's logins.

    def flow_key(self) -> str:
        return self.query.get("key", ["default"])[-1]

    def h_flow_token(self):
        """{username: demo, password: secret} (JSON or form) -> an access token for `key` that
        `/flow/protected?key=K` accepts `?uses=N` times (default 1000; 0: never)."""
        key = self.flow_key()
        uses = qint(self.query, "uses", 1000, lo=0)
        data = self.json_body()
        with FLOW_LOCK:
            stats = FLOW_STATS.setdefault(key, {"logins": 0, "refused_logins": 0, "ok": 0, "refused": 0})
            if not isinstance(data, dict) or (data.get("username"), data.get("password")) != (LOGIN_USER, LOGIN_PASSWORD):
                stats["refused_logins"] += 1
                refused = True
            else:
                stats["logins"] += 1
                refused = False
                token = f"tok-{key}-{stats['logins']}-" + secrets.token_urlsafe(12)
                FLOW_TOKENS[token] = [key, uses]
                stats["last_token"] = token
        if refused:
            return self.fail(401, "invalid credentials")
        self.send_json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                             "login": stats["logins"]}, [("Cache-Control", "no-store")])

    def h_flow_protected(self):
        """Needs a token of `/flow/token` with the same key, as `Authorization: Bearer T` or
        `?access_token=T`; each success uses one of its uses; else 401."""
        key = self.flow_key()
        auth = self.headers.get("Authorization") or ""
        scheme, _, token = auth.partition(" ")
        token = token.strip() if scheme.lower() == "bearer" else ""
        token = token or self.query.get("access_token", [""])[-1]
        with FLOW_LOCK:
            stats = FLOW_STATS.setdefault(key, {"logins": 0, "refused_logins": 0, "ok": 0, "refused": 0})
            entry = FLOW_TOKENS.get(token)
            ok = entry is not None and entry[0] == key and entry[1] > 0
            if ok:
                entry[1] -= 1
                stats["ok"] += 1
            else:
                stats["refused"] += 1
        if not ok:
            return self.fail(401, "token missing, unknown or used up",
                             [("WWW-Authenticate", 'Bearer realm="courier-test"')])
        self.send_json(200, {"ok": True, "key": key, "uses_left": entry[1]})

    def h_flow_stats(self):
        """`{logins, refused_logins, ok, refused, last_token}` for `key` (`last_token`: the
        last one issued, for tests that check it is masked everywhere)."""
        with FLOW_LOCK:
            stats = dict(FLOW_STATS.get(self.flow_key(), {"logins": 0, "refused_logins": 0, "ok": 0, "refused": 0}))
        self.send_json(200, stats)

    def h_basic(self):
        creds = self.basic_credentials()
        if creds != (BASIC_USER, BASIC_PASSWORD):
            return self.fail(401, "basic auth demo:secret required",
                             [("WWW-Authenticate", 'Basic realm="courier-test", charset="UTF-8"')])
        self.send_json(200, {"authenticated": True, "user": creds[0]})

    def h_digest(self, algorithm):
        """`ANY /digest/md5|sha256`: HTTP Digest (RFC 7616, qop=auth) for demo:digest-pass-7616.
        Without credentials, or with wrong ones, 401 and a fresh challenge; the body says why."""
        name, hash_function = DIGEST_ALGORITHMS[algorithm]
        header = self.headers.get("Authorization") or ""
        reason = "digest credentials required" if not header else self.digest_problem(header, name, hash_function)
        if reason is None:
            return self.send_json(200, {"authenticated": True, "user": DIGEST_USER, "algorithm": name})
        nonce = secrets.token_hex(16)
        with DIGEST_LOCK:
            DIGEST_NONCES.add(nonce)
        challenge = (f'Digest realm="{DIGEST_REALM}", nonce="{nonce}", qop="auth", algorithm={name}, '
                     f'opaque="{secrets.token_hex(8)}"')
        self.fail(401, reason, [("WWW-Authenticate", challenge)])

    def digest_problem(self, header: str, name: str, hash_function):
        """Why an `Authorization: Digest …` does not prove the password, or None when it does."""
        scheme, _, rest = header.partition(" ")
        if scheme.lower() != "digest":
            return f"expected Digest credentials, got {scheme}"
        params = {m.group(1).lower(): (m.group(2) if m.group(2) is not None else m.group(3))
                  for m in DIGEST_PARAM.finditer(rest)}
        params = {k: re.sub(r"\\(.)", r"\1", v) for k, v in params.items()}
        for key in ("username", "realm", "nonce", "uri", "response", "qop", "nc", "cnonce"):
            if key not in params:
                return f"digest credentials lack {key}"
        if params.get("algorithm", "MD5").upper() != name.upper():
            return f"expected algorithm {name}, got {params.get('algorithm')}"
        if params["qop"] != "auth" or params["realm"] != DIGEST_REALM or params["uri"] != self.raw_path:
            return "digest credentials for another realm, qop or uri"
        with DIGEST_LOCK:
            if params["nonce"] not in DIGEST_NONCES:
                return "unknown nonce"

        def h(text: str) -> str:
            return hash_function(text.encode()).hexdigest()

        ha1 = h(f"{params['username']}:{DIGEST_REALM}:{DIGEST_PASSWORD}")
        ha2 = h(f"{self.command}:{params['uri']}")
        expected = h(f"{ha1}:{params['nonce']}:{params['nc']}:{params['cnonce']}:auth:{ha2}")
        if params["username"] != DIGEST_USER or params["response"] != expected:
            return "wrong digest username or password"
        return None



# ---------------------------------------------------------------------------
# servers


# /flow/* (workflow auth flow tests): per-key counters, token -> [key, uses left].
FLOW_STATS: dict = {}
FLOW_TOKENS: dict = {}
FLOW_LOCK = threading.Lock()


# /delay?group=G counters: peak requests in flight at once per group (tests of --jobs).
CONCURRENCY: dict = {}
CONCURRENCY_LOCK = threading.Lock()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256
    ssl_context: ssl.SSLContext | None = None
    verbose = False

    def finish_request(self, request, client_address):
        if self.ssl_context is None:
            return super().finish_request(request, client_address)
        # The TLS handshake runs here, on the connection's own thread, never in accept().
        request.settimeout(15)
        try:
            tls = self.ssl_context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError) as exc:
            if self.verbose:
                sys.stderr.write(f"{client_address[0]}:{client_address[1]} - TLS handshake failed: {exc}\n")
            return
        try:
            tls.settimeout(None)
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            try:
                tls.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)


def make_ssl_context(args) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.tls_cert, args.tls_key)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3 if args.tls_min == "1.3" else ssl.TLSVersion.TLSv1_2
    if args.tls_max:
        ctx.maximum_version = ssl.TLSVersion.TLSv1_3 if args.tls_max == "1.3" else ssl.TLSVersion.TLSv1_2
    if args.client_ca:
        ctx.load_verify_locations(args.client_ca)
        ctx.verify_mode = ssl.CERT_OPTIONAL if args.client_cert_optional else ssl.CERT_REQUIRED
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Courier integration-test server (127.0.0.1 only)")
    p.add_argument("--port", type=int, default=0, help="default 0: a free port")
    p.add_argument("--port-file", help="the chosen port is written here once listening")
    p.add_argument("--tls-cert", help="serve HTTPS with this PEM certificate (chain)")
    p.add_argument("--tls-key", help="PEM private key for --tls-cert")
    p.add_argument("--client-ca", help="require client certificates signed by this CA (ssl.CERT_REQUIRED)")
    p.add_argument("--client-cert-optional", action="store_true", help="with --client-ca: ask, do not require")
    p.add_argument("--tls-min", choices=["1.2", "1.3"], default="1.2")
    p.add_argument("--tls-max", choices=["1.2", "1.3"])
    p.add_argument("--http-port", type=int, default=0, help="with TLS and --http-port-file: plain HTTP port")
    p.add_argument("--http-port-file", help="with TLS: also serve plain HTTP, port written here")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        p.error("--tls-cert and --tls-key go together")
    if args.client_ca and not args.tls_cert:
        p.error("--client-ca needs --tls-cert/--tls-key")

    remove_stale(args.port_file, args.http_port_file)
    Handler.verbose = args.verbose
    Server.verbose = args.verbose
    servers = []
    main_server = Server(("127.0.0.1", args.port), Handler)
    scheme = "http"
    if args.tls_cert:
        main_server.ssl_context = make_ssl_context(args)
        scheme = "https"
    servers.append((main_server, scheme, args.port_file))
    if args.http_port_file and args.tls_cert:
        servers.append((Server(("127.0.0.1", args.http_port), Handler), "http", args.http_port_file))

    return serve(servers)

if __name__ == "__main__":
    sys.exit(main())
