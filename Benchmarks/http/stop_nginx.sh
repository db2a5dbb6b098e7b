#!/usr/bin/env bash
# Stop the nginx started by start_nginx.sh with the same DIR. Quiet when it is not running.
#   Benchmarks/http/stop_nginx.sh DIR
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
PIDFILE=$1/nginx/nginx.pid
[ -f "$PIDFILE" ] || exit 0
PID=$(cat "$PIDFILE")
if kill -0 "$PID" 2>/dev/null; then
    kill -QUIT "$PID" 2>/dev/null || true   # graceful: finish in-flight requests
    for _ in $(seq 1 100); do
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$PID" 2>/dev/null; then
        kill -TERM "$PID" 2>/dev/null || true
        sleep 0.2
    fi
fi
rm -f "$PIDFILE"
