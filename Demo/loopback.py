"""The start-up contract shared by the demo API and the test servers.

A server listens on 127.0.0.1 only, writes its port to `--port-file` once it listens
(atomically, so a reader never sees half a number), prints one flushed
`listening on SCHEME://127.0.0.1:PORT` line, and stops with exit status 0 on SIGTERM or
Ctrl-C. Harnesses delete the port file, start the server, and wait for the file.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from http.server import ThreadingHTTPServer


def remove_stale(*paths) -> None:
    """A port file left by an earlier run must not be mistaken for this run's."""
    for path in paths:
        if path:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


def write_port_file(path: str, port: int) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(f"{port}\n")
    os.replace(tmp, path)  # readers never see a half-written file


def listen(port: int, port_file: str, backlog: int = 64) -> socket.socket:
    """A listening TCP socket on 127.0.0.1 for servers that do not use `http.server`
    (raw sockets, uvicorn): the stale port file removed, the new one written once the socket
    listens, and the `listening on` line printed."""
    remove_stale(port_file)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(backlog)
    bound = listener.getsockname()[1]
    write_port_file(port_file, bound)
    print(f"listening on http://127.0.0.1:{bound}", flush=True)
    return listener


def serve(servers: list[tuple[ThreadingHTTPServer, str, str | None]]) -> int:
    """Serves `(server, scheme, port_file)` entries until SIGTERM or Ctrl-C.

    The first entry is served on this thread, the others on daemon threads. Port files are
    written last-to-first, so once the first entry's file exists every server answers.
    """
    def on_term(signum, frame):
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_term)
    for server, _, _ in servers[1:]:
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    for server, scheme, port_file in reversed(servers):
        port = server.server_address[1]
        if port_file:
            write_port_file(port_file, port)
        print(f"listening on {scheme}://127.0.0.1:{port}", flush=True)
    main_server = servers[0][0]
    try:
        main_server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        for server, _, _ in servers[1:]:
            server.shutdown()
        for server, _, _ in servers:
            server.server_close()
    return 0
