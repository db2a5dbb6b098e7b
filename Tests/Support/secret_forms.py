#!/usr/bin/env python3
"""Every form in which a secret value could leak, derived independently of Courier's code.

Reads one JSON document on standard input:

    {"secrets": [{"label": "pw", "value": <any JSON value>, "user": "bob"}, ...]}

`value` may be a string or a structure (object/list): every string leaf is a secret of its
own (numbers and booleans too, as their JSON text). `user` (optional) adds the base64 of
`user:secret`, the form HTTP Basic credentials travel in.

Prints one JSON object per line, `{"label", "form", "value"}`, for every form at least
MIN_FORM_BYTES long (shorter ones would match by chance), plus the first PREFIX_BYTES bytes of
every form (a cut output may show only the beginning of a secret). Forms are deduplicated;
the first form name that produced a value wins.

Standard library only; used by Tests/IntegrationTests/Secrets/CanaryTests.swift.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import shlex
import sys
import unicodedata
from urllib.parse import quote, quote_plus

MIN_FORM_BYTES = 8
PREFIX_BYTES = 12


def leaves(value):
    """Every scalar leaf of a JSON structure, as text."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, str):
        yield value
    elif value is not None:
        yield json.dumps(value)


def b64_variants(raw: bytes):
    std = base64.b64encode(raw).decode()
    url = base64.urlsafe_b64encode(raw).decode()
    yield "base64", std
    yield "base64-unpadded", std.rstrip("=")
    yield "base64url", url
    yield "base64url-unpadded", url.rstrip("=")


def b64_cores(raw: bytes):
    """The base64 characters fully determined by `raw` when it sits after 0, 1 or 2 other
    bytes of a longer text: character i covers bits [6i, 6i+6), so it depends on `raw` alone
    when 6i >= 8p and 6i + 6 <= 8(p + n)."""
    for p in range(3):
        padded = bytes(p) + raw
        start = -(-8 * p // 6)  # ceil
        end = (8 * (p + len(raw))) // 6
        std = base64.b64encode(padded).decode()[start:end]
        url = base64.urlsafe_b64encode(padded).decode()[start:end]
        yield f"base64-core-{p}", std
        yield f"base64url-core-{p}", url


def percent_variants(s: str):
    alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    encodings = {
        "percent-rfc3986": quote(s, safe="-._~"),
        "percent-form": quote_plus(s, safe="*-._"),  # application/x-www-form-urlencoded
        "percent-all": "".join(c if c in alnum else quote(c, safe="") for c in s),
    }
    for name, upper in encodings.items():
        yield name, upper
        yield name + "-lowerhex", lower_hex_escapes(upper, "%")


def lower_hex_escapes(text: str, marker: str) -> str:
    """`%C3%A4` → `%c3%a4` (only the hex digits after `marker`)."""
    out, i = [], 0
    while i < len(text):
        if text[i] == marker and i + 3 <= len(text):
            out.append(marker + text[i + 1:i + 3].lower())
            i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def json_variants(s: str):
    for ascii_only in (False, True):
        base = json.dumps(s, ensure_ascii=ascii_only)[1:-1]
        name = "json-ascii" if ascii_only else "json"
        yield name, base
        yield name + "-escaped-slash", base.replace("/", "\\/")
        if ascii_only:
            upper = []
            i = 0
            while i < len(base):
                if base.startswith("\\u", i):
                    upper.append("\\u" + base[i + 2:i + 6].upper())
                    i += 6
                else:
                    upper.append(base[i])
                    i += 1
            yield name + "-upperhex", "".join(upper)
    # HTML-safe JSON (Go, some serializers): <, >, & as \u003c, \u003e, \u0026.
    safe = json.dumps(s, ensure_ascii=True)[1:-1]
    yield "json-html-safe", safe.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def xml_variants(s: str):
    named = html.escape(s, quote=True)  # &amp; &lt; &gt; &quot; &#x27;
    yield "xml-named", named
    yield "xml-named-apos39", named.replace("&#x27;", "&#39;")
    yield "xml-named-apos", named.replace("&#x27;", "&apos;")
    yield "xml-named-newline-10", named.replace("\n", "&#10;")
    yield "xml-named-newline-xA", named.replace("\n", "&#xA;")
    yield "xml-named-numeric-nonascii", "".join(c if ord(c) < 128 else f"&#{ord(c)};" for c in named)
    special = set("&<>\"'\n")
    yield "xml-numeric", "".join(f"&#{ord(c)};" if c in special else c for c in s)
    yield "xml-numeric-hex", "".join(f"&#x{ord(c):X};" if c in special or ord(c) >= 128 else c for c in s)
    yield "xml-numeric-all", "".join(f"&#{ord(c)};" if c in special or ord(c) >= 128 else c for c in s)


def shell_variants(s: str):
    yield "shell-single", shlex.quote(s)
    ansi = s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    yield "shell-ansi-c", "$'" + ansi + "'"
    yield "shell-double", '"' + "".join("\\" + c if c in '"\\$`' else c for c in s) + '"'


def forms_of(s: str, user: str | None):
    for norm in ("NFC", "NFD"):
        t = unicodedata.normalize(norm, s)
        tag = "" if norm == "NFC" else "-nfd"
        yield "plain" + tag, t
        raw = t.encode()
        yield from ((n + tag, v) for n, v in b64_variants(raw))
        yield from ((n + tag, v) for n, v in b64_cores(raw))
        if user is not None:
            yield "basic" + tag, base64.b64encode(f"{user}:{t}".encode()).decode()
        yield from ((n + tag, v) for n, v in percent_variants(t))
        yield from ((n + tag, v) for n, v in json_variants(t))
        yield from ((n + tag, v) for n, v in xml_variants(t))
        yield from ((n + tag, v) for n, v in shell_variants(t))
        yield "hex" + tag, binascii.hexlify(raw).decode()
        yield "hex-upper" + tag, binascii.hexlify(raw).decode().upper()
    yield "plain-as-given", s


def main() -> int:
    request = json.load(sys.stdin)
    seen: set[str] = set()
    for secret in request["secrets"]:
        label = secret["label"]
        user = secret.get("user")
        for leaf in leaves(secret["value"]):
            for name, form in forms_of(leaf, user):
                candidates = [(name, form)]
                encoded = form.encode()
                if len(encoded) > PREFIX_BYTES:
                    prefix = encoded[:PREFIX_BYTES].decode("utf-8", errors="ignore")
                    candidates.append((name + "-prefix12", prefix))
                for form_name, text in candidates:
                    if len(text.encode()) < MIN_FORM_BYTES or text in seen:
                        continue
                    seen.add(text)
                    print(json.dumps({"label": label, "form": form_name, "value": text}, ensure_ascii=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
