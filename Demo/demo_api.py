#!/usr/bin/env python3
"""Courier demo API: a small JSON API that the example workflows run against.

Python 3.11 standard library only. Listens on 127.0.0.1 only.

    python3 Demo/demo_api.py --port 0 --port-file /tmp/demo.port [--verbose] [--token-ttl 3600]

Endpoints (all JSON, `Content-Type: application/json`):

    GET    /health                  200 {"status":"ok","version":"1.0"}
    POST   /auth/login              {username,password}; demo/demo-pass -> 200 tokens + user,
                                    wrong -> 401, malformed -> 400
    POST   /auth/refresh            {refresh_token} -> 200 new access (and refresh) token, bad -> 401
    GET    /me                      Bearer required -> 200 user; else 401 + WWW-Authenticate: Bearer
    GET    /items                   ?limit=N ?q=text -> 200 {"items":[...],"count":n,"total":m}
    POST   /items                   Bearer; {name, price, tags?} -> 201 + Location, 422 on bad input
    GET    /items/<id>              200 item / 404
    PUT    /items/<id>              Bearer; {name, price, tags?} -> 200 item / 404 / 422
    PATCH  /items/<id>              Bearer; any subset of {name, price, tags} -> 200 item
    DELETE /items/<id>              Bearer; 204 / 404
    GET    /slow?ms=N               waits N ms (capped at 5000) -> 200 {"slept_ms":N}
    GET    /status/<code>           that status with {"status":code,"reason":...}
    GET|POST /echo                  {method,path,query,headers,body,json}
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import threading
import time
from datetime import datetime, timezone
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from loopback import remove_stale, serve

VERSION = "1.0"
MAX_BODY = 10 * 1024 * 1024  # bigger request bodies get 413
USERS = {
    "demo": {"password": "demo-pass", "user": {"id": 1, "name": "demo", "roles": ["admin", "user"]}},
}


def rfc3339_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


class State:
    """Everything the API remembers, guarded by one lock."""

    def __init__(self, token_ttl: int) -> None:
        self.lock = threading.Lock()
        self.token_ttl = token_ttl
        self.access: dict[str, tuple[str, float]] = {}  # token -> (username, expiry)
        self.refresh: dict[str, str] = {}  # refresh token -> username
        self.items: dict[int, dict] = {}
        self.next_id = 1
        for name, price, tags in (
            ("Coffee mug", 12.5, ["kitchen"]),
            ("Notebook", 4.99, ["office", "paper"]),
            ("Desk lamp", 39.0, ["office"]),
        ):
            self.add_item({"name": name, "price": price, "tags": tags})

    def add_item(self, fields: dict) -> dict:
        now = rfc3339_now()
        item = {
            "id": self.next_id,
            "name": fields["name"],
            "price": fields["price"],
            "tags": list(fields.get("tags") or []),
            "created_at": now,
            "updated_at": now,
        }
        self.items[item["id"]] = item
        self.next_id += 1
        return item

    def issue_tokens(self, username: str) -> dict:
        access = secrets.token_urlsafe(24)
        refresh = secrets.token_urlsafe(24)
        self.access[access] = (username, time.monotonic() + self.token_ttl)
        self.refresh[refresh] = username
        return {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": self.token_ttl,
            "refresh_token": refresh,
            "user": USERS[username]["user"],
        }

    def user_for(self, token: str) -> str | None:
        entry = self.access.get(token)
        if entry is None:
            return None
        username, expiry = entry
        if time.monotonic() >= expiry:
            del self.access[token]
            return None
        return username


def validate_item(data, partial: bool) -> tuple[dict, list]:
    """Returns (clean fields, errors); errors are {"field","message"} dicts."""
    errors = []
    if not isinstance(data, dict):
        return {}, [{"field": "", "message": "body must be a JSON object"}]
    clean = {}
    allowed = {"name", "price", "tags"}
    for key in data:
        if key not in allowed and key not in ("id", "created_at", "updated_at"):
            errors.append({"field": key, "message": "unknown field"})
    if "name" in data:
        name = data["name"]
        if not isinstance(name, str) or not name.strip():
            errors.append({"field": "name", "message": "must be a non-empty string"})
        elif len(name) > 200:
            errors.append({"field": "name", "message": "must be at most 200 characters"})
        else:
            clean["name"] = name
    elif not partial:
        errors.append({"field": "name", "message": "is required"})
    if "price" in data:
        price = data["price"]
        if isinstance(price, bool) or not isinstance(price, (int, float)):
            errors.append({"field": "price", "message": "must be a number"})
        elif price < 0:
            errors.append({"field": "price", "message": "must be >= 0"})
        else:
            clean["price"] = price
    elif not partial:
        errors.append({"field": "price", "message": "is required"})
    if "tags" in data:
        tags = data["tags"]
        if tags is None:
            clean["tags"] = []
        elif not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            errors.append({"field": "tags", "message": "must be a list of strings"})
        else:
            clean["tags"] = tags
    return clean, errors


class BodyError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else small responses wait ~40 ms for delayed ACKs
    server_version = "CourierDemo/" + VERSION
    timeout = 120  # idle keep-alive connections are closed after this

    # set by main()
    state: State
    verbose = False

    # ---- plumbing -------------------------------------------------------

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        if self.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    def read_body(self) -> bytes:
        if getattr(self, "_body", None) is not None:
            return self._body
        te = self.headers.get("Transfer-Encoding", "")
        if "chunked" in te.lower():
            chunks = []
            total = 0
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    raise BodyError(400, "truncated chunked body")
                try:
                    size = int(line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise BodyError(400, "bad chunk size") from None
                if size == 0:
                    while True:  # trailers, up to the empty line
                        trailer = self.rfile.readline(65537)
                        if trailer in (b"\r\n", b"\n", b""):
                            break
                    break
                total += size
                if total > MAX_BODY:
                    self.close_connection = True
                    raise BodyError(413, "request body too large")
                chunks.append(self.rfile.read(size))
                self.rfile.readline(3)
            body = b"".join(chunks)
        else:
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                self.close_connection = True
                raise BodyError(400, "bad Content-Length") from None
            if length > MAX_BODY:
                self.close_connection = True
                raise BodyError(413, "request body too large")
            body = self.rfile.read(length) if length > 0 else b""
            if len(body) < length:
                self.close_connection = True
                raise BodyError(400, "truncated body")
        self._body = body
        return body

    def read_json(self):
        body = self.read_body()
        if not body.strip():
            raise BodyError(400, "a JSON body is required")
        try:
            return json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BodyError(400, f"malformed JSON: {exc}") from None

    def send_json(self, status: int, payload=None, headers: dict | None = None) -> None:
        no_body = status in (204, 304) or 100 <= status < 200
        data = b"" if no_body or payload is None else json.dumps(payload).encode() + b"\n"
        self.send_response(status)
        if not no_body:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    def error(self, status: int, message: str, **extra) -> None:
        self.send_json(status, {"error": message, **extra})

    def bearer_user(self) -> str | None:
        auth = self.headers.get("Authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        with self.state.lock:
            return self.state.user_for(token.strip())

    def require_user(self) -> str | None:
        user = self.bearer_user()
        if user is None:
            self.send_json(401, {"error": "a valid bearer token is required"},
                           {"WWW-Authenticate": "Bearer"})
        return user

    # ---- dispatch -------------------------------------------------------

    ROUTES = [
        (re.compile(r"^/health$"), {"GET": "health"}),
        (re.compile(r"^/auth/login$"), {"POST": "login"}),
        (re.compile(r"^/auth/refresh$"), {"POST": "refresh"}),
        (re.compile(r"^/me$"), {"GET": "me"}),
        (re.compile(r"^/items/?$"), {"GET": "list_items", "POST": "create_item"}),
        (re.compile(r"^/items/(?P<id>[^/]+)$"),
         {"GET": "get_item", "PUT": "put_item", "PATCH": "patch_item", "DELETE": "delete_item"}),
        (re.compile(r"^/slow$"), {"GET": "slow"}),
        (re.compile(r"^/status/(?P<code>[^/]+)$"), {"*": "status"}),
        (re.compile(r"^/echo$"), {"*": "echo"}),
    ]

    def dispatch(self) -> None:
        self._body = None
        url = urlsplit(self.path)
        self.url_path = url.path
        self.query = parse_qs(url.query, keep_blank_values=True)
        try:
            for pattern, methods in self.ROUTES:
                match = pattern.match(url.path)
                if not match:
                    continue
                method = "GET" if self.command == "HEAD" else self.command
                name = methods.get(method) or methods.get("*")
                if name is None:
                    self.read_body()
                    allow = ", ".join(sorted(methods))
                    self.send_json(405, {"error": f"method {self.command} not allowed"}, {"Allow": allow})
                    return
                getattr(self, "h_" + name)(**match.groupdict())
                break
            else:
                self.read_body()
                self.error(404, "not found", path=url.path)
            # Unread request bodies would corrupt the next request on this connection.
            if self._body is None and (self.headers.get("Content-Length") or self.headers.get("Transfer-Encoding")):
                try:
                    self.read_body()
                except BodyError:
                    self.close_connection = True
        except BodyError as exc:
            self.error(exc.status, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as exc:  # never kill the connection thread silently
            self.close_connection = True
            try:
                self.error(500, f"internal error: {type(exc).__name__}: {exc}")
            except OSError:
                pass

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = dispatch

    # ---- handlers -------------------------------------------------------

    def h_health(self):
        self.send_json(200, {"status": "ok", "version": VERSION})

    def h_login(self):
        data = self.read_json()
        if (not isinstance(data, dict) or not isinstance(data.get("username"), str)
                or not isinstance(data.get("password"), str)):
            return self.error(400, "body must be {\"username\": string, \"password\": string}")
        account = USERS.get(data["username"])
        if account is None or not secrets.compare_digest(account["password"], data["password"]):
            return self.error(401, "invalid credentials")
        with self.state.lock:
            tokens = self.state.issue_tokens(data["username"])
        self.send_json(200, tokens, {"Cache-Control": "no-store"})

    def h_refresh(self):
        data = self.read_json()
        if not isinstance(data, dict) or not isinstance(data.get("refresh_token"), str):
            return self.error(400, "body must be {\"refresh_token\": string}")
        with self.state.lock:
            username = self.state.refresh.pop(data["refresh_token"], None)  # refresh tokens rotate
            tokens = self.state.issue_tokens(username) if username else None
        if tokens is None:
            return self.error(401, "invalid refresh token")
        self.send_json(200, tokens, {"Cache-Control": "no-store"})

    def h_me(self):
        user = self.require_user()
        if user:
            self.send_json(200, USERS[user]["user"])

    def h_list_items(self):
        limit = None
        if "limit" in self.query:
            try:
                limit = int(self.query["limit"][-1])
                if limit < 0:
                    raise ValueError
            except ValueError:
                return self.error(400, "limit must be a non-negative integer")
        q = self.query.get("q", [""])[-1].strip().lower()
        with self.state.lock:
            items = [dict(i) for i in self.state.items.values()]
        if q:
            items = [i for i in items if q in i["name"].lower() or any(q == t.lower() for t in i["tags"])]
        total = len(items)
        if limit is not None:
            items = items[:limit]
        self.send_json(200, {"items": items, "count": len(items), "total": total})

    def item_id(self, raw: str) -> int | None:
        try:
            return int(raw)
        except ValueError:
            return None

    def h_create_item(self):
        if not self.require_user():
            return
        fields, errors = validate_item(self.read_json(), partial=False)
        if errors:
            return self.error(422, "validation failed", details=errors)
        with self.state.lock:
            item = dict(self.state.add_item(fields))
        self.send_json(201, item, {"Location": f"/items/{item['id']}"})

    def h_get_item(self, id):  # noqa: A002
        key = self.item_id(id)
        with self.state.lock:
            item = self.state.items.get(key)
            item = dict(item) if item else None
        if item is None:
            return self.error(404, "item not found", id=id)
        self.send_json(200, item)

    def update_item(self, id, partial):  # noqa: A002
        if not self.require_user():
            return
        data = self.read_json()
        key = self.item_id(id)
        with self.state.lock:
            exists = key in self.state.items
        if not exists:
            return self.error(404, "item not found", id=id)
        fields, errors = validate_item(data, partial=partial)
        if errors:
            return self.error(422, "validation failed", details=errors)
        with self.state.lock:
            item = self.state.items.get(key)
            if item is None:
                return self.error(404, "item not found", id=id)
            if not partial:
                item["tags"] = []
            item.update(fields)
            item["updated_at"] = rfc3339_now()
            item = dict(item)
        self.send_json(200, item)

    def h_put_item(self, id):  # noqa: A002
        self.update_item(id, partial=False)

    def h_patch_item(self, id):  # noqa: A002
        self.update_item(id, partial=True)

    def h_delete_item(self, id):  # noqa: A002
        if not self.require_user():
            return
        key = self.item_id(id)
        with self.state.lock:
            item = self.state.items.pop(key, None)
        if item is None:
            return self.error(404, "item not found", id=id)
        self.send_json(204)

    def h_slow(self):
        try:
            ms = int(self.query.get("ms", ["1000"])[-1])
        except ValueError:
            return self.error(400, "ms must be an integer")
        ms = max(0, min(ms, 5000))
        time.sleep(ms / 1000)
        self.send_json(200, {"slept_ms": ms})

    def h_status(self, code):
        self.read_body()
        try:
            status = int(code)
        except ValueError:
            status = 0
        if not 200 <= status <= 599:
            return self.error(400, "status must be an integer from 200 to 599", got=code)
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = ""
        headers = {}
        if status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        self.send_json(status, {"status": status, "reason": reason}, headers)

    def h_echo(self):
        body = self.read_body()
        text = body.decode("utf-8", errors="replace")
        try:
            parsed = json.loads(body) if body.strip() else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            parsed = None
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            headers[name] = headers[name] + ", " + value if name in headers else value
        self.send_json(200, {
            "method": self.command,
            "path": self.url_path,
            "query": self.query,
            "headers": headers,
            "body": text,
            "json": parsed,
        })


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Courier demo API (127.0.0.1 only)")
    parser.add_argument("--port", type=int, default=8080, help="port to listen on; 0 picks a free one (default 8080)")
    parser.add_argument("--port-file", help="write the chosen port here once listening")
    parser.add_argument("--token-ttl", type=int, default=3600, help="access token lifetime in seconds")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args(argv)

    remove_stale(args.port_file)
    Handler.state = State(args.token_ttl)
    Handler.verbose = args.verbose
    server = Server(("127.0.0.1", args.port), Handler)
    return serve([(server, "http", args.port_file)])

if __name__ == "__main__":
    sys.exit(main())
