#!/usr/bin/env python3
"""A real OAuth2 authorization + resource server for Courier's auth tests (127.0.0.1 only).

    .venv/bin/python3 Tests/Servers/oauth2_server.py --port-file PATH [--port N] [--verbose]

Written with FastAPI's OAuth2 form handling, PyJWT and uvicorn from PyPI (pinned in
Scripts/venv.sh), so Courier's `auth.oauth2` and the library's `OAuth2Authenticator` are tested
against the request parsing and token handling of real libraries, not against our own idea of
RFC 6749. Same start-up contract as the other servers (Tests/Servers/README.md).

Every endpoint takes `?key=K` (default `default`): keys are tenants with their own tokens,
counters and switches, so tests running in parallel never share state. See the README's
oauth2_server.py section for the endpoints.
"""

from __future__ import annotations

import argparse
import base64
import os
import secrets
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

import jwt
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import listen  # noqa: E402  (the demo's start-up contract)

SIGNING_KEY = secrets.token_bytes(32)

# Confidential clients and how each may authenticate (RFC 6749 §2.3.1): client_secret_basic,
# client_secret_post (credentials in the form body), or either.
CLIENTS = {
    "courier": ("secret", {"basic", "body"}),
    "basic-client": ("basic-secret", {"basic"}),
    "body-client": ("body-secret", {"body"}),
}
USERS = {"demo": "secret"}
GRANTS = ("password", "client_credentials", "refresh_token")


@dataclass
class Tenant:
    """One key's state. `generation` is stamped into every access token; `/expire` bumps it,
    so "the token expired" never depends on wall-clock timing on a loaded machine."""

    generation: int = 0
    refresh_tokens: dict[str, dict] = field(default_factory=dict)  # live token → its grant
    grants: dict[str, int] = field(default_factory=lambda: {g: 0 for g in GRANTS})
    refused: dict[str, int] = field(default_factory=lambda: {g: 0 for g in GRANTS})
    invalid_client: int = 0
    protected_ok: int = 0
    protected_401: int = 0
    refuse_refresh: bool = False
    issued: list[str] = field(default_factory=list)  # every token value handed out, for grep tests


LOCK = threading.Lock()
TENANTS: dict[str, Tenant] = {}


def tenant(request: Request) -> tuple[str, Tenant]:
    key = request.query_params.get("key", "default")
    with LOCK:
        return key, TENANTS.setdefault(key, Tenant())


def oauth_error(status: int, error: str, description: str, basic_challenge: bool = False) -> JSONResponse:
    """RFC 6749 §5.2 error response."""
    headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
    if basic_challenge:
        headers["WWW-Authenticate"] = 'Basic realm="courier-oauth2"'
    return JSONResponse({"error": error, "error_description": description}, status_code=status, headers=headers)


def authenticate_client(request: Request, form: dict[str, str]) -> tuple[str | None, JSONResponse | None]:
    """Returns (client_id, None) or (None, the error). Basic wins when both are present (§2.3)."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("basic "):
        try:
            decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
            raw_id, _, raw_secret = decoded.partition(":")
            # §2.3.1: the id and secret are form-urlencoded before Base64.
            client_id, client_secret = urllib.parse.unquote_plus(raw_id), urllib.parse.unquote_plus(raw_secret)
        except (ValueError, UnicodeDecodeError):
            return None, oauth_error(401, "invalid_client", "malformed Basic credentials", True)
        method = "basic"
    elif "client_id" in form:
        client_id, client_secret, method = form["client_id"], form.get("client_secret", ""), "body"
    else:
        return None, oauth_error(401, "invalid_client", "client authentication required", True)
    known = CLIENTS.get(client_id)
    if known is None or not secrets.compare_digest(known[0], client_secret):
        return None, oauth_error(401, "invalid_client", "unknown client or wrong secret", method == "basic")
    if method not in known[1]:
        return None, oauth_error(401, "invalid_client", f"client {client_id} may not authenticate by {method}", method == "basic")
    return client_id, None


def issue(key: str, state: Tenant, request: Request, client_id: str, subject: str, scope: str,
          with_refresh: bool, with_id_token: bool) -> JSONResponse:
    ttl = float(request.query_params.get("ttl", "3600"))
    now = time.time()
    claims = {"sub": subject, "client_id": client_id, "scope": scope, "key": key,
              "gen": state.generation, "iat": int(now), "exp": int(now + ttl) + 1,
              "jti": secrets.token_hex(8)}
    body: dict[str, object] = {"access_token": jwt.encode(claims, SIGNING_KEY, algorithm="HS256"),
                               "token_type": "Bearer", "scope": scope}
    if request.query_params.get("omit_expires_in") != "1":
        body["expires_in"] = int(ttl) if ttl == int(ttl) else ttl
    if with_refresh:
        refresh = "rt-" + secrets.token_urlsafe(24)
        state.refresh_tokens[refresh] = {"sub": subject, "client_id": client_id, "scope": scope}
        body["refresh_token"] = refresh
    if with_id_token:
        body["id_token"] = jwt.encode({"sub": subject, "aud": client_id, "iat": int(now), "exp": int(now + ttl) + 1,
                                       "nonce": secrets.token_hex(4)}, SIGNING_KEY, algorithm="HS256")
    state.issued.extend(str(body[name]) for name in ("access_token", "refresh_token", "id_token") if name in body)
    return JSONResponse(body, headers={"Cache-Control": "no-store", "Pragma": "no-cache"})


app = FastAPI()


@app.post("/oauth/token")
async def token(request: Request):
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return oauth_error(400, "invalid_request", "the token request must be application/x-www-form-urlencoded (RFC 6749 §4.3.2)")
    form = {k: str(v) for k, v in (await request.form()).items()}
    key, state = tenant(request)
    grant = form.get("grant_type", "")
    with LOCK:
        if grant not in GRANTS:
            return oauth_error(400, "unsupported_grant_type", f"grant_type {grant!r} is not supported")
        client_id, error = authenticate_client(request, form)
        if error is not None:
            state.invalid_client += 1
            return error
        scope = form.get("scope", "notes:read")
        if grant == "password":
            user, password = form.get("username", ""), form.get("password", "")
            if USERS.get(user) != password or not user:
                state.refused[grant] += 1
                return oauth_error(400, "invalid_grant", "wrong username or password")
            state.grants[grant] += 1
            return issue(key, state, request, client_id, user, scope, True, True)
        if grant == "client_credentials":
            state.grants[grant] += 1
            return issue(key, state, request, client_id, client_id, scope, False, False)
        presented = form.get("refresh_token", "")
        record = state.refresh_tokens.get(presented)
        if state.refuse_refresh or record is None or record["client_id"] != client_id:
            state.refused[grant] += 1
            return oauth_error(400, "invalid_grant", "refresh token is invalid, expired or already used")
        del state.refresh_tokens[presented]  # rotation: a refresh token works once
        state.grants[grant] += 1
        return issue(key, state, request, client_id, record["sub"], form.get("scope", record["scope"]), True, False)


def bearer_claims(request: Request, state: Tenant, key: str) -> dict | None:
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("bearer "):
        return None
    try:
        claims = jwt.decode(header[7:].strip(), SIGNING_KEY, algorithms=["HS256"])
    except jwt.PyJWTError:
        return None
    if claims.get("key") != key or claims.get("gen") != state.generation:
        return None
    return claims


@app.api_route("/notes", methods=["GET", "POST", "PUT", "DELETE"])
async def notes(request: Request):
    key, state = tenant(request)
    with LOCK:
        claims = bearer_claims(request, state, key)
        if claims is None:
            state.protected_401 += 1
            return JSONResponse({"error": "invalid_token"}, status_code=401,
                                headers={"WWW-Authenticate": 'Bearer realm="courier-oauth2", error="invalid_token"'})
        state.protected_ok += 1
    return {"ok": True, "user": claims["sub"], "client_id": claims["client_id"], "scope": claims["scope"],
            "notes": [{"id": 1, "text": "first"}, {"id": 2, "text": "second"}]}


@app.post("/expire")
async def expire(request: Request):
    """Every access token issued so far stops working; `?refresh_tokens=1` revokes the live
    refresh tokens too (a stale refresh token)."""
    _, state = tenant(request)
    with LOCK:
        state.generation += 1
        if request.query_params.get("refresh_tokens") == "1":
            state.refresh_tokens.clear()
        return {"generation": state.generation}


@app.post("/refuse-refresh")
async def refuse_refresh(request: Request):
    """`?on=1` (default) makes every refresh_token grant fail with invalid_grant; `?on=0` undoes it."""
    _, state = tenant(request)
    with LOCK:
        state.refuse_refresh = request.query_params.get("on", "1") != "0"
        return {"refuse_refresh": state.refuse_refresh}


@app.get("/stats")
async def stats(request: Request):
    _, state = tenant(request)
    with LOCK:
        return {"grants": dict(state.grants), "refused": dict(state.refused), "invalid_client": state.invalid_client,
                "protected_ok": state.protected_ok, "protected_401": state.protected_401,
                "live_refresh_tokens": len(state.refresh_tokens), "issued": list(state.issued)}


@app.get("/health")
async def health():
    return {"status": "ok"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    sock = listen(args.port, args.port_file, backlog=128)
    config = uvicorn.Config(app, log_level="info" if args.verbose else "warning",
                            access_log=args.verbose, timeout_keep_alive=120)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
