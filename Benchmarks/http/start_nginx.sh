#!/usr/bin/env bash
# Start Debian's nginx on a free 127.0.0.1 port for HTTP client benchmarks.
#
#   Benchmarks/http/start_nginx.sh PORTFILE DIR     # then: curl http://127.0.0.1:$(cat PORTFILE)/hello.json
#   Benchmarks/http/stop_nginx.sh DIR
#
# DIR/nginx/ becomes nginx's prefix (conf, logs, temp dirs, html/hello.json ~100 bytes,
# html/1mb.bin). nginx runs as a daemon (pid in DIR/nginx/nginx.pid); the port is written to
# PORTFILE once it answers. Environment: NGINX (default /usr/sbin/nginx, else from PATH),
# NGINX_WORKERS (default 1, leaving the other cores to the client being measured).
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 PORTFILE DIR" >&2
    exit 2
fi
PORTFILE=$1
DIR=$2
HERE=$(cd "$(dirname "$0")" && pwd)
NGINX=${NGINX:-/usr/sbin/nginx}
[ -x "$NGINX" ] || NGINX=$(command -v nginx || true)
if [ -z "$NGINX" ] || [ ! -x "$NGINX" ]; then
    echo "start_nginx.sh: nginx not found (apt-get install nginx-light or nginx)" >&2
    exit 1
fi
WORKERS=${NGINX_WORKERS:-1}

mkdir -p "$DIR"
PREFIX=$(cd "$DIR" && pwd)/nginx
if [ -f "$PREFIX/nginx.pid" ] && kill -0 "$(cat "$PREFIX/nginx.pid")" 2>/dev/null; then
    echo "start_nginx.sh: nginx already running from $PREFIX (stop_nginx.sh $DIR)" >&2
    exit 1
fi
mkdir -p "$PREFIX"/{conf,logs,html,tmp}
printf '%s\n' '{"message":"hello from nginx","id":12345,"ok":true,"tags":["bench","http"],"padding":"abcdefgh"}' \
    >"$PREFIX/html/hello.json"
[ -f "$PREFIX/html/1mb.bin" ] || head -c 1048576 /dev/zero >"$PREFIX/html/1mb.bin"

# Workers must be able to read the prefix. As root, run them as root (the prefix may sit
# under a private temporary directory); otherwise the `user` directive does not apply.
if [ "$(id -u)" = 0 ]; then USER_LINE="user root root;"; else USER_LINE=""; fi

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

for attempt in 1 2 3 4 5; do
    PORT=$(free_port)
    sed -e "s|@PORT@|$PORT|g" -e "s|@PREFIX@|$PREFIX|g" -e "s|@WORKERS@|$WORKERS|g" \
        -e "s|@USER_LINE@|$USER_LINE|g" "$HERE/nginx.conf.template" >"$PREFIX/conf/nginx.conf"
    : >"$PREFIX/logs/error.log"
    if "$NGINX" -p "$PREFIX" -c "$PREFIX/conf/nginx.conf" -e "$PREFIX/logs/error.log" \
        >"$PREFIX/logs/start.log" 2>&1; then
        for _ in $(seq 1 100); do
            if python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$PORT" 2>/dev/null; then
                tmp="$PORTFILE.tmp$$"
                echo "$PORT" >"$tmp" && mv -f "$tmp" "$PORTFILE"
                exit 0
            fi
            sleep 0.05
        done
        echo "start_nginx.sh: nginx started but port $PORT does not answer" >&2
        cat "$PREFIX/logs/error.log" >&2
        exit 1
    fi
    # The port may have been taken between choosing and binding: try another one.
    grep -q "Address already in use" "$PREFIX/logs/start.log" "$PREFIX/logs/error.log" 2>/dev/null || break
done
echo "start_nginx.sh: nginx failed to start:" >&2
cat "$PREFIX/logs/start.log" "$PREFIX/logs/error.log" >&2
exit 1
