#!/usr/bin/env python3
"""Records the exact bytes of every request, for the `--curl` byte-for-byte tests.

Usage: raw_echo.py --port-file PATH [--port N] [--verbose]

Every request (any method, any path) is kept as received — request line, header block
and body, byte for byte (a chunked body with its chunk framing) — and answered
`418 I'm a teapot` with those bytes as an `application/octet-stream` body. The log is
read back over the same port with `GET /__raw_echo/log/N` (the N-th request kept,
0-based, answered 200 with its bytes; 404 past the end) and `GET /__raw_echo/count`
(`200` with the count as text); neither is kept, and each closes its connection. Python 3 standard library only.
"""

import argparse
import os
import signal
import socket
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Demo"))
from loopback import listen  # noqa: E402  (the demo's start-up contract)

LOG_PREFIX = b"/__raw_echo/"


class Log:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []

    def add(self, raw):
        with self.lock:
            self.requests.append(raw)

    def get(self, index):
        with self.lock:
            return self.requests[index] if 0 <= index < len(self.requests) else None

    def count(self):
        with self.lock:
            return len(self.requests)


class Connection:
    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buffer += data

    def read_until(self, marker):
        while marker not in self.buffer:
            self.fill()
        end = self.buffer.index(marker) + len(marker)
        out, self.buffer = self.buffer[:end], self.buffer[end:]
        return out

    def read_exactly(self, count):
        while len(self.buffer) < count:
            self.fill()
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out


def read_request(connection):
    """One request's raw bytes, and its target."""
    head = connection.read_until(b"\r\n\r\n")
    lines = head[:-4].split(b"\r\n")
    target = lines[0].split(b" ")[1] if len(lines[0].split(b" ")) > 1 else b""
    length, chunked = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value:
            chunked = True
    body = b""
    if chunked:
        while True:
            size_line = connection.read_until(b"\r\n")
            body += size_line
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                while True:  # trailers, up to the empty line
                    trailer = connection.read_until(b"\r\n")
                    body += trailer
                    if trailer == b"\r\n":
                        break
                break
            body += connection.read_exactly(size + 2)
    elif length:
        body = connection.read_exactly(length)
    return head + body, target


def answer(sock, status, body):
    head = (f"HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    sock.sendall(head + body)


def serve(sock, log, verbose):
    sock.settimeout(120)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    connection = Connection(sock)
    try:
        while True:
            raw, target = read_request(connection)
            if target.startswith(LOG_PREFIX):
                rest = target[len(LOG_PREFIX):]
                if rest == b"count":
                    answer(sock, "200 OK", str(log.count()).encode())
                    return
                kept = None
                if rest.startswith(b"log/") and rest[4:].isdigit():
                    kept = log.get(int(rest[4:]))
                answer(sock, "200 OK" if kept is not None else "404 Not Found", kept or b"")
                return  # the harness reads to the end: close
            log.add(raw)
            if verbose:
                print(f"kept request {log.count() - 1}: {len(raw)} bytes", flush=True)
            answer(sock, "418 I'm a teapot", raw)
    except (EOFError, OSError, ValueError, IndexError):
        pass
    finally:
        sock.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    listener = listen(args.port, args.port_file)

    def stop(signum, frame):
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log = Log()
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, log, args.verbose), daemon=True).start()


if __name__ == "__main__":
    main()
