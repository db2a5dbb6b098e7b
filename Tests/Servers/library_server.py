#!/usr/bin/env python3
"""The server of the `Courier` library's integration tests (standard library only, 127.0.0.1 only).

    python3 Tests/Servers/library_server.py --port-file PATH [the options of testserver.py]

Every endpoint and option of testserver.py (HTTP, HTTPS, client certificates), plus the
`/lib/...` endpoints an app's API looks like: snake_case JSON users, and a token-protected
endpoint that holds requests until N are in flight, with a refresh counter. See
Tests/Servers/README.md.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testserver  # noqa: E402  (same folder: its handler, state and start-up are reused)
from testserver import qint  # noqa: E402

# created_at of every user: a fixed ISO 8601 instant, so tests can compare dates exactly.
CREATED_AT = "2026-01-02T03:04:05Z"


class Gate:
    """Per-key state of `/lib/gather`: the current token, counters, and the requests held."""

    def __init__(self) -> None:
        self.token: str | None = None
        self.refreshes = 0
        self.unauthorized = 0
        self.ok = 0
        self.in_flight = 0
        self.peak = 0
        self.released = False


GATES: dict[str, Gate] = {}
GATES_LOCK = threading.Condition()


def gate(key: str) -> Gate:
    """The key's gate (call with GATES_LOCK held)."""
    return GATES.setdefault(key, Gate())


class LibraryHandler(testserver.Handler):
    ROUTES = [
        (r"/lib/users/(?P<user_id>-?\d+)", "GET", "lib_user"),
        (r"/lib/users", "POST", "lib_create_user"),
        (r"/lib/bad-user", "GET", "lib_bad_user"),
        (r"/lib/token", "POST", "lib_token"),
        (r"/lib/gather", "*", "lib_gather"),
        (r"/lib/stats", "GET", "lib_stats"),
    ] + testserver.Handler.ROUTES
    COMPILED = [(re.compile("^" + p + "/?$"), m, h) for p, m, h in ROUTES]

    # ---- snake_case JSON ---------------------------------------------------

    def h_lib_user(self, user_id):
        """`{id, full_name, created_at, team_name?}`; `?expand=team` adds team_name; 404 for id 0."""
        uid = int(user_id)
        if uid <= 0:
            return self.fail(404, "no such user", id=uid)
        payload = {"id": uid, "full_name": f"User {uid}", "created_at": CREATED_AT}
        if "team" in self.query.get("expand", []):
            payload["team_name"] = "Platform"
        self.send_json(200, payload)

    def h_lib_create_user(self):
        """201 with the user made from the JSON body (`full_name` required), plus the body's
        keys as received (`received_keys`, sorted) and its `created_at` as received."""
        data = self.json_body()
        if not isinstance(data, dict) or not isinstance(data.get("full_name"), str):
            return self.fail(422, "full_name (a string) is required", received=data)
        payload = {
            "id": 1000 + len(data["full_name"]),
            "full_name": data["full_name"],
            "created_at": data.get("created_at", CREATED_AT),
            "received_keys": sorted(data.keys()),
        }
        self.send_json(201, payload)

    def h_lib_bad_user(self):
        """A user whose nested `team.member_count` is a string: a decoding error at a coding path."""
        self.send_json(200, {"id": 7, "full_name": "Bad Data", "created_at": CREATED_AT,
                             "team": {"name": "Platform", "member_count": "many"}})

    # ---- token refresh under concurrency ------------------------------------

    def h_lib_token(self):
        """`POST /lib/token?key=K`: a new access token for K (the old one stops working), counted."""
        key = self.query.get("key", ["default"])[-1]
        delay_ms = qint(self.query, "delay_ms", 0, 0, 10000)
        if delay_ms:
            time.sleep(delay_ms / 1000)  # a slow identity provider widens the race
        token = "lib-" + secrets.token_urlsafe(18)
        with GATES_LOCK:
            g = gate(key)
            g.token = token
            g.refreshes += 1
            count = g.refreshes
        self.send_json(200, {"access_token": token, "token_type": "Bearer", "refresh": count})

    def h_lib_gather(self):
        """`/lib/gather?key=K&n=N&wait_ms=W`: 401 unless `Authorization: Bearer <K's token>`;
        with it, the request is held until N requests of K are held at once (then all of them,
        and every later one, go) or W ms pass (default 10000, max 30000); the peak is recorded."""
        key = self.query.get("key", ["default"])[-1]
        n = qint(self.query, "n", 50, 1, 10000)
        wait_ms = qint(self.query, "wait_ms", 10000, 0, 30000)
        auth = self.headers.get("Authorization") or ""
        with GATES_LOCK:
            g = gate(key)
            if g.token is None or auth != f"Bearer {g.token}":
                g.unauthorized += 1
                authorized = False
            else:
                authorized = True
                g.in_flight += 1
                g.peak = max(g.peak, g.in_flight)
                if g.in_flight >= n:
                    g.released = True
                    GATES_LOCK.notify_all()
                deadline = time.monotonic() + wait_ms / 1000
                while not g.released:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    GATES_LOCK.wait(left)
                g.in_flight -= 1
                g.ok += 1
                peak = g.peak
        if not authorized:
            return self.fail(401, "invalid token", [("WWW-Authenticate", 'Bearer realm="courier-test", error="invalid_token"')])
        self.send_json(200, {"ok": True, "key": key, "peak": peak})

    def h_lib_stats(self):
        """`{refreshes, unauthorized, ok, peak, in_flight}` for `?key=K`."""
        key = self.query.get("key", ["default"])[-1]
        with GATES_LOCK:
            g = gate(key)
            payload = {"refreshes": g.refreshes, "unauthorized": g.unauthorized, "ok": g.ok,
                       "peak": g.peak, "in_flight": g.in_flight}
        self.send_json(200, payload)


if __name__ == "__main__":
    # testserver.main serves `testserver.Handler`: point it at this subclass.
    testserver.Handler = LibraryHandler
    sys.exit(testserver.main())
