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

Besides the encoders' forms, the echo styles of issue 21 (werkzeug's re-quoted URL, Go's and
.NET's default JSON) and the encoding matrix (each character class left as is or encoded, in
each encoding and mix); Tests/Servers/secrets_echo.py writes the same ones back.

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


# MARK: - Echo styles and the encoding matrix (issue 21)

def werkzeug_variants(s: str):
    """A URL as werkzeug/Flask re-quote it (`request.url`): `/ : @` kept, the rest of
    RFC 3986's reserved characters, the space and non-ASCII percent-encoded."""
    quoted = quote(s, safe="/:@")
    yield "werkzeug-url", quoted
    yield "werkzeug-url-lowerhex", lower_hex_escapes(quoted, "%")


def go_json_string(s: str) -> str:
    """A string as Go's encoding/json writes it by default: HTML-safe (`<`, `>`, `&` as
    `\\u003c`…, lower-case hex), U+2028/U+2029 escaped, other non-ASCII as is."""
    out = json.dumps(s, ensure_ascii=False)[1:-1]
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        out = out.replace(char, escape)
    return out


def dotnet_json_string(s: str) -> str:
    """A string as .NET's System.Text.Json writes it by default (JavaScriptEncoder.Default):
    HTML-sensitive characters (`< > & ' " +` and the backquote) and everything beyond ASCII as
    `\\uXXXX` with upper-case hex; `\\n`, `\\r`, `\\t`, `\\b`, `\\f`, `\\\\` as short escapes."""
    short = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\\": "\\\\"}
    out = []
    for char in s:
        if char in short:
            out.append(short[char])
        elif char in "<>&'\"+`" or ord(char) < 0x20 or ord(char) > 0x7E:
            units = char.encode("utf-16-be")
            out.extend("\\u%02X%02X" % (units[i], units[i + 1]) for i in range(0, len(units), 2))
        else:
            out.append(char)
    return "".join(out)


def style_variants(s: str):
    yield from werkzeug_variants(s)
    yield "go-json", go_json_string(s)
    yield "dotnet-json", dotnet_json_string(s)


# Character classes the matrix encodes independently (a character in two classes, `&`, is
# encoded when either is).
MATRIX_CLASSES = {
    "unreserved": lambda c: c.isascii() and (c.isalnum() or c in "-._~"),
    "gen-delims": lambda c: c in "/:@",
    "sub-delims": lambda c: c in "&=+;",
    "space": lambda c: c == " ",
    "quotes": lambda c: c in "\"'",
    "markup": lambda c: c in "<>&",
    "non-ascii": lambda c: ord(c) > 127,
}


def _percent(char: str, upper: bool) -> str:
    return "".join(("%%%02X" if upper else "%%%02x") % byte for byte in char.encode())


def _json_u(char: str, upper: bool) -> str:
    units = char.encode("utf-16-be")
    return "".join(("\\u%02X%02X" if upper else "\\u%02x%02x") % (units[i], units[i + 1]) for i in range(0, len(units), 2))


MATRIX_ENCODINGS = {
    "percent": lambda c, i: _percent(c, True),
    "percent-lowerhex": lambda c, i: _percent(c, False),
    "form-plus": lambda c, i: "+" if c == " " else _percent(c, True),
    "json-u-lower": lambda c, i: _json_u(c, False),
    "json-u-upper": lambda c, i: _json_u(c, True),
    "html-decimal": lambda c, i: f"&#{ord(c)};",
    "html-hex": lambda c, i: f"&#x{ord(c):x};",
    "percent-json-mix": lambda c, i: (_percent(c, True), _json_u(c, False), _percent(c, False), _json_u(c, True))[i % 4],
}


def matrix_subsets():
    """Each class alone, all of them, and all but each one."""
    names = list(MATRIX_CLASSES)
    yield from ((name,) for name in names)
    yield tuple(names)
    yield from (tuple(n for n in names if n != left_out) for left_out in names)


def matrix_variants(s: str):
    """`s` with the characters of each subset of classes encoded, in each encoding."""
    for encoding, encode in MATRIX_ENCODINGS.items():
        for subset in matrix_subsets():
            tests = [MATRIX_CLASSES[name] for name in subset]
            text = "".join(encode(c, i) if any(t(c) for t in tests) else c for i, c in enumerate(s))
            yield f"matrix-{encoding}-{'+'.join(subset)}", text


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
    yield from style_variants(s)
    yield from matrix_variants(s)


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
