# Sourced by the benchmarks: Debian's nginx serving WORK/www on a free 127.0.0.1 port,
# one worker (the other core is the client's), long keep-alive, no access log.
#
#   . Benchmarks/serve-www.sh
#   work=$(mktemp -d); trap 'stop_www "$work"; rm -rf "$work"' EXIT
#   mkdir -p "$work/www"; …files…; serve_www "$work"    # sets $port
#
# (Benchmarks/http/start_nginx.sh is the stand-alone variant for trying a client by hand.)

serve_www() {
    local work=$1 nginx_bin
    nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx_bin" ] || { echo "error: nginx is missing (apt-get install nginx-light; make bench installs it)" >&2; exit 1; }
    chmod 755 "$work"  # nginx workers run as another user
    mkdir -p "$work/www" "$work/logs"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 100000;
  keepalive_timeout 60s;
  default_type application/json;
  server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
    "$nginx_bin" -c "$work/nginx.conf" -p "$work" 2>/dev/null
    # Any answer (a 404 too) means it listens.
    for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0; sleep 0.05; done
    echo "error: nginx did not answer on 127.0.0.1:$port" >&2
    cat "$work/logs/error.log" >&2
    exit 1
}

stop_www() {
    [ -f "$1/nginx.pid" ] && kill "$(cat "$1/nginx.pid")" 2>/dev/null
    return 0
}
