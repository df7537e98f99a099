#!/usr/bin/env bash
# Load runs: builds the server and the load tool (tests/load), starts the server on a free port
# with a temporary database and raised rate limits and socket cap (the defaults in the balancer,
# attack and computer-flood modes), plays many friend games against it (games against the
# computer in the computer-flood mode), stops it and exits with the tool's status.
# docs/performance.md gives the current results; docs/performance-history.md keeps every run
# recorded.
#
#   tests/load.sh short          200 games for 30 s at 1–2 s per move, then 10 games at
#                                0–50 ms per move for 10 s, so games end and rematch, then two
#                                short --find-max steps, then joins during a move flood (40
#                                games at 30–80 ms per move, a new room after each game) on a
#                                node quick to refuse new games when saturated; no error
#                                allowed (debug builds; under two minutes once built)
#   tests/load.sh full           5,000 games / 10,000 sockets at human pace (2–6 s per move)
#                                for 2 minutes after a 60-s ramp, embedded SQLite (release)
#   tests/load.sh full-blitz     the same under a per-game clock of 3+2 (three minutes each and
#                                two seconds a move) instead of 30 s a move (release)
#   tests/load.sh full-cluster   the full run on two nodes sharing PostgreSQL and Redis; each
#                                game's two players use different nodes (release)
#   tests/load.sh idle           the servers' memory per idle socket: 10,000 sockets joined to
#                                games, not moving (release)
#   tests/load.sh max            the most moves/s acknowledged with p99 <= 50 ms and no error,
#                                found by the tool's --find-max: 50 games at 0-200 ms per move,
#                                then x1.5 per step, 10 s at full load each, embedded SQLite
#                                (release)
#   tests/load.sh max-cluster    the same on two nodes sharing PostgreSQL and Redis (release)
#   tests/load.sh balancer       deploy/nginx.conf in front of two nodes set up as in
#                                deploy/docker-compose.yml, without Docker: a few quick games
#                                through the balancer alone, WebSockets included (debug)
#   tests/load.sh attack         the abuse defences: 200 games at 1–2 s per move for 40 s after
#                                a 20-s ramp, players spread over 10 loopback addresses, on a
#                                server with its default limits; then the same on a fresh
#                                server with 200 attack tasks from 127.0.0.2 (idle sockets,
#                                ping floods, junk cookies, game spam). Prints both p99 move
#                                acknowledgements and their ratio (the requirement: at most 2);
#                                fails if a game had errors (release)
#   tests/load.sh computer-flood whether one address flooding the server with computer games
#                                slows the computer's replies to others: 4 guests, each from
#                                its own loopback address, play the computer at level 10
#                                (hard), thinking 0–500 ms a move, for 40 s after a 2-s ramp,
#                                on a server with its default limits (10 computer games in
#                                progress per address); then the same on a fresh server with 30
#                                flood tasks from 127.0.0.2 creating computer games and playing
#                                them with no think time. Prints both p99 reply times (from a
#                                guest's move to the computer's) and their ratio; fails if a
#                                guest had errors (release)
#
# Arguments after the mode go to the tool and override its settings, e.g.
#   tests/load.sh full --games 2000 --json
#   tests/load.sh attack --games 20 --attack 20 --ramp 5s --duration 10s
#   tests/load.sh computer-flood --level easy --computer-flood 5 --duration 10s
# (in the attack and computer-flood modes they go to both runs, except that the first never
# attacks or floods).
# Environment: OUTFLANK_LOAD_PROFILE=debug|release overrides the build profile;
# OUTFLANK_LOAD_NO_BUILD=1 uses the binaries already built; OUTFLANK_LOAD_SERVER=<path> runs
# that server binary instead of building one (e.g. another checkout's); RUST_LOG is the servers' log filter
# (default `warn`, so request logging does not weigh on the numbers); the cluster mode takes
# PostgreSQL and Redis from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
# and TEST_REDIS_URL (default redis://127.0.0.1:6379), as tests/services.sh exports them.
# OUTFLANK_LOAD_SERVER_CPUS and OUTFLANK_LOAD_TOOL_CPUS (taskset lists, e.g. 0 and 1) pin the
# servers and the tool to CPUs of their own, so that a tool busy attacking does not take the
# server's cores and the figures are the server's alone.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-short}
[ $# -gt 0 ] && shift

quick_args=()
max_args=()
flood_args=()
attack_args=()
flood_tasks_args=()
case $mode in
  short)
    profile=${OUTFLANK_LOAD_PROFILE:-debug}
    nodes=1
    tool_args=(--games 200 --ramp 15s --duration 15s --think 1s..2s)
    # Human-pace games last minutes: a few quick games also cover the end and the rematch,
    # under a per-game clock (1+0).
    quick_args=(--games 10 --ramp 1s --duration 10s --think 0s..50ms --control 1+0)
    # Two steps of --find-max, so the stepping mode is exercised (not measured: debug build).
    max_args=(--find-max --games 4 --ramp 1s --step 3s --think 0s..20ms --max-steps 2 --p99-limit 1s)
    # Joins during a move flood, on a fresh node quick to call itself saturated: new games may
    # be refused (503 with Retry-After, honoured by the tool), but none may time out.
    flood_args=(--games 40 --churn --ramp 1s --duration 10s --think 30ms..80ms)
    ;;
  full)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    tool_args=(--games 5000 --ramp 60s --duration 120s --think 2s..6s)
    ;;
  full-blitz)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    tool_args=(--games 5000 --ramp 60s --duration 120s --think 2s..6s --control 3+2)
    ;;
  full-cluster)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=2
    tool_args=(--games 5000 --ramp 60s --duration 120s --think 2s..6s)
    ;;
  max)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    tool_args=(--find-max --games 50 --ramp 3s --step 10s --think 0s..200ms)
    ;;
  max-cluster)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=2
    tool_args=(--find-max --games 50 --ramp 3s --step 10s --think 0s..200ms)
    ;;
  idle)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    tool_args=(--idle-sockets 10000 --duration 10s)
    ;;
  balancer)
    profile=${OUTFLANK_LOAD_PROFILE:-debug}
    nodes=2
    # Few enough games that setting them up stays within nginx's per-client limit.
    tool_args=(--games 6 --ramp 2s --duration 12s --think 0s..50ms)
    ;;
  attack)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    # The server keeps its default limits: 64 sockets and 20 requests/s (burst 60) per address.
    # 200 games are 400 players, so 10 addresses hold 40 sockets each and make 80 setup
    # requests each (a session each, then a room or a join) over the ramp; the attack's one
    # address meets the limits alone.
    tool_args=(--games 200 --clients 10 --ramp 20s --duration 40s --think 1s..2s)
    attack_args=(--attack 200)
    ;;
  computer-flood)
    profile=${OUTFLANK_LOAD_PROFILE:-release}
    nodes=1
    # The server keeps its default limits. Each guest has an address of its own; the flood's
    # one address may have 10 computer games in progress, so most of its 30 tasks are refused
    # (too_many_games, then the rate limit) and keep trying.
    tool_args=(--games 4 --clients 4 --level hard --think 0s..500ms --ramp 2s --duration 40s)
    flood_tasks_args=(--computer-flood 30)
    ;;
  *)
    echo "usage: tests/load.sh short|full|full-blitz|full-cluster|max|max-cluster|idle|balancer|attack|computer-flood [load tool arguments...]" >&2
    exit 2
    ;;
esac

say() { printf 'load: %s\n' "$*" >&2; }

# Each socket is a file descriptor, in the server and in the tool.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 12000 ] \
  && [ "$mode" != short ] && [ "$mode" != attack ] && [ "$mode" != computer-flood ]; then
  say "warning: the open-files limit is $(ulimit -n); 10,000 sockets need more (ulimit -n 65536 as root)"
fi

if [ "$profile" = release ]; then profile_flag=(--release); else profile_flag=(); fi
target_dir=${CARGO_TARGET_DIR:-target}
if [ -z "${OUTFLANK_LOAD_NO_BUILD:-}" ]; then
  say "building the server and the load tool ($profile)"
  # Two builds, so the server's features are not unified with the tool's (which would rebuild
  # the server the test suite already built).
  if [ -z "${OUTFLANK_LOAD_SERVER:-}" ]; then
    cargo build --locked "${profile_flag[@]}" -p outflank-api --bin outflank
  fi
  cargo build --locked "${profile_flag[@]}" -p outflank-load
fi
server_bin=${OUTFLANK_LOAD_SERVER:-$target_dir/$profile/outflank}
tool_bin=$target_dir/$profile/outflank-load
server_pin=()
tool_pin=()
[ -n "${OUTFLANK_LOAD_SERVER_CPUS:-}" ] && server_pin=(taskset -c "$OUTFLANK_LOAD_SERVER_CPUS")
[ -n "${OUTFLANK_LOAD_TOOL_CPUS:-}" ] && tool_pin=(taskset -c "$OUTFLANK_LOAD_TOOL_CPUS")

work=$(mktemp -d "${TMPDIR:-/tmp}/outflank-load.XXXXXX")
pids=()
database=""
redis_prefix=""
admin_url=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
redis_url=${TEST_REDIS_URL:-redis://127.0.0.1:6379}

stop_servers() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 40); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.25
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pids=()
}

cleanup() {
  stop_servers
  if [ -n "$database" ]; then
    psql -w -q "$admin_url" -c "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" >/dev/null 2>&1 \
      || say "could not drop the database $database"
  fi
  if [ -n "$redis_prefix" ] && command -v redis-cli >/dev/null 2>&1; then
    redis-cli -u "$redis_url" --scan --pattern "$redis_prefix*" 2>/dev/null \
      | xargs -r -n 500 redis-cli -u "$redis_url" del >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A port nobody listens on, below the range the kernel hands out for outgoing connections
# (which the tool's 10,000 sockets may all but fill, leaving a "free" port bound after all).
free_port() {
  local port low
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 1 100); do
    port=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

server_env=(RUST_LOG="${RUST_LOG:-warn}")
if [ "$mode" = balancer ]; then
  # As in docker-compose.yml: the nodes' default limits, per client behind the trusted proxy.
  balancer_port=$(free_port)
  server_env+=(
    OUTFLANK_TRUSTED_PROXIES=127.0.0.1,::1
    OUTFLANK_PUBLIC_URL="http://127.0.0.1:$balancer_port"
  )
elif [ "$mode" != attack ] && [ "$mode" != computer-flood ]; then
  # Every player comes from 127.0.0.1: one address with up to 10,000 sockets.
  server_env+=(OUTFLANK_RATE_PER_SECOND=100000 OUTFLANK_RATE_BURST=100000)
  server_env+=(OUTFLANK_SOCKETS_PER_ADDRESS=100000)
fi
if [ "$mode" = idle ]; then
  # Nobody moves: a long clock keeps the games from being aborted while the sockets are held.
  server_env+=(OUTFLANK_MOVE_TIME_MS=3600000)
fi
if [ "$nodes" -gt 1 ]; then
  unique="outflank_load_$(date +%s)_$$"
  database=$unique
  redis_prefix="$unique:"
  say "creating the PostgreSQL database $database"
  psql -w -q "$admin_url" -c "CREATE DATABASE \"$database\"" >/dev/null
  server_env+=(
    DATABASE_URL="${admin_url%/*}/$database"
    REDIS_URL="$redis_url"
    OUTFLANK_REDIS_PREFIX="$unique"
    # Both nodes must sign sessions with the same key.
    OUTFLANK_SESSION_SECRET="$(head -c 48 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  )
fi

# nginx from PATH, or Debian's package unpacked here (nothing is installed or started).
nginx_binary() {
  if command -v nginx >/dev/null 2>&1; then
    command -v nginx
    return
  fi
  if [ ! -x "$work/nginx-package/usr/sbin/nginx" ]; then
    say "unpacking Debian's nginx"
    (cd "$work" && apt-get download nginx >/dev/null 2>&1) || {
      apt-get update -qq >/dev/null && (cd "$work" && apt-get download nginx >/dev/null 2>&1)
    }
    dpkg -x "$work"/nginx_*.deb "$work/nginx-package"
  fi
  echo "$work/nginx-package/usr/sbin/nginx"
}

# deploy/nginx.conf with Docker's names made local: the nodes' hostnames become their ports,
# and Docker's DNS resolver, the re-resolving of upstream names (nginx 1.27.3 or later) and
# the nginx user go. Logs and temporary files go under the run's folder; the rest of the file
# is used as it is.
start_balancer() {
  local binary
  binary=$(nginx_binary)
  mkdir -p "$work/nginx"
  sed -e '/^user /d' -e '/^\s*resolver /d' -e 's/ resolve / /' \
    -e "s/outflank-1:8080/127.0.0.1:${node_ports[0]}/" \
    -e "s/outflank-2:8080/127.0.0.1:${node_ports[1]}/" \
    -e "s/listen 8080;/listen 127.0.0.1:$balancer_port;/" \
    -e "s|access_log /dev/stdout;|access_log $work/nginx/access.log;|" \
    -e "s|error_log /dev/stderr warn;|error_log $work/nginx/error.log warn;|" \
    -e "s|^http {|http {\\n    client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy; fastcgi_temp_path $work/nginx/fastcgi; uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;|" \
    deploy/nginx.conf >"$work/nginx/nginx.conf"
  "$binary" -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" \
    -g "daemon off; pid $work/nginx/nginx.pid;" &
  pids+=("$!")
  for _ in $(seq 1 40); do
    curl -fsS "http://127.0.0.1:$balancer_port/lb-healthz" >/dev/null 2>&1 && break
    sleep 0.25
  done
  if ! curl -fsS "http://127.0.0.1:$balancer_port/readyz" >/dev/null 2>&1; then
    say "the balancer did not pass requests to the nodes:"
    cat "$work/nginx/error.log" >&2
    exit 1
  fi
  say "balancer (deploy/nginx.conf, $("$binary" -v 2>&1 | sed 's/.*: //')): http://127.0.0.1:$balancer_port"
}

# Starts the nodes for the run named $1 (which names their logs and, on one node, their
# embedded database's folder, so each run starts from an empty one) and waits until they are
# ready; sets urls, node_ports and server_pid_args.
start_nodes() {
  local name=$1 node port pid
  local node_env=("${server_env[@]}")
  if [ "$nodes" -eq 1 ]; then
    mkdir -p "$work/data-$name"
    node_env+=(OUTFLANK_DATA_DIR="$work/data-$name")
  fi
  urls=()
  node_ports=()
  server_pid_args=()
  for node in $(seq 1 "$nodes"); do
    port=$(free_port)
    "${server_pin[@]}" env "${node_env[@]}" OUTFLANK_ADDR="127.0.0.1:$port" "$server_bin" \
      >"$work/server-$name-$node.log" 2>&1 &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 120); do
      curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
      if ! kill -0 "$pid" 2>/dev/null; then
        say "the server did not start:"
        cat "$work/server-$name-$node.log" >&2
        exit 1
      fi
      sleep 0.25
    done
    if ! curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then
      say "the server on port $port is not ready after 30 s:"
      tail -n 20 "$work/server-$name-$node.log" >&2
      exit 1
    fi
    say "node $node: http://127.0.0.1:$port (pid $pid)"
    urls+=(--url "http://127.0.0.1:$port")
    node_ports+=("$port")
    server_pid_args+=(--server-pid "$pid")
  done
}

# Sets status=1 if a node of the run named $1 stopped or panicked during it.
check_nodes() {
  local name=$1 node log
  for node in $(seq 1 "$nodes"); do
    log="$work/server-$name-$node.log"
    if ! kill -0 "${pids[$((node - 1))]}" 2>/dev/null; then
      say "node $node stopped during the run:"
      tail -n 30 "$log" >&2
      status=1
    elif grep -q "panicked" "$log"; then
      say "node $node panicked:"
      grep -m 5 -A 3 "panicked" "$log" >&2
      status=1
    fi
  done
}

# The p99 move-acknowledgement latency (ms) at full load in a report of the tool, text or
# --json (the whole run's when it has no full-load part); empty when it has neither.
p99_of() {
  awk '
    /^move ack latency, whole run / { sub(/.* p99 /, ""); sub(/ ms.*/, ""); p99["all"] = $0 }
    /^move ack latency, at full load / { sub(/.* p99 /, ""); sub(/ ms.*/, ""); p99["steady"] = $0 }
    /^  "ack_latency": / { in_latency = 1 }
    in_latency && /^    "all": / { part = "all" }
    in_latency && /^    "steady": / { part = "steady" }
    in_latency && /"p99_ms": / { value = $2; gsub(/[^0-9.]/, "", value); p99[part] = value }
    in_latency && /^  }/ { in_latency = 0 }
    END { if ("steady" in p99) print p99["steady"]; else if ("all" in p99) print p99["all"] }
  ' "$1"
}

# The victims' p99 reply time (ms) of a computer-flood report, text or --json, as p99_of does.
reply_p99_of() {
  awk '
    /^victims. reply time, whole run / { sub(/.* p99 /, ""); sub(/ ms.*/, ""); p99["all"] = $0 }
    /^victims. reply time, at full load / { sub(/.* p99 /, ""); sub(/ ms.*/, ""); p99["steady"] = $0 }
    /^  "victims": / { in_victims = 1 }
    in_victims && /^    "reply_time": / { in_reply = 1 }
    in_reply && /^      "all": / { part = "all" }
    in_reply && /^      "steady": / { part = "steady" }
    in_reply && /"p99_ms": / { value = $2; gsub(/[^0-9.]/, "", value); p99[part] = value }
    in_reply && /^    }/ { in_reply = 0 }
    in_victims && /^  }/ { in_victims = 0 }
    END { if ("steady" in p99) print p99["steady"]; else if ("all" in p99) print p99["all"] }
  ' "$1"
}

status=0
if [ "$mode" = attack ] || [ "$mode" = computer-flood ]; then
  # The same players twice, each on a fresh server: alone, then beside the abuse.
  if [ "$mode" = attack ]; then
    quiet=baseline
    loud=attack
    quiet_args=(--attack 0)
    loud_args=("${attack_args[@]}")
    p99_reader=p99_of
  else
    quiet=alone
    loud=flood
    quiet_args=(--computer-flood 0)
    loud_args=("${flood_tasks_args[@]}")
    p99_reader=reply_p99_of
  fi
  for run in "$quiet" "$loud"; do
    start_nodes "$run"
    if [ "$run" = "$quiet" ]; then
      run_args=("${tool_args[@]}" "$@" "${quiet_args[@]}")
    else
      run_args=("${tool_args[@]}" "${loud_args[@]}" "$@")
    fi
    say "$run run: outflank-load ${urls[*]} ${run_args[*]}"
    "${tool_pin[@]}" "$tool_bin" "${urls[@]}" "${server_pid_args[@]}" "${run_args[@]}" \
      | tee "$work/report-$run.txt" || status=$?
    check_nodes "$run"
    stop_servers
  done
  quiet_p99=$("$p99_reader" "$work/report-$quiet.txt")
  loud_p99=$("$p99_reader" "$work/report-$loud.txt")
  ratio=$(awk -v a="${loud_p99:-0}" -v b="${quiet_p99:-0}" \
    'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }')
  if [ "$mode" = attack ]; then
    verdict=$(awk -v r="$ratio" 'BEGIN {
      if (r == "n/a") print "cannot be compared"
      else if (r + 0 <= 2) print "within the required 2x"
      else print "ABOVE the required 2x" }')
    say "p99 move ack at full load: ${quiet_p99:-n/a} ms without the attack," \
      "${loud_p99:-n/a} ms with it: ratio $ratio, $verdict"
  else
    say "victims' p99 reply time at full load: ${quiet_p99:-n/a} ms without the flood," \
      "${loud_p99:-n/a} ms with it: ratio $ratio"
  fi
  exit "$status"
fi

start_nodes run
if [ "$mode" = balancer ]; then
  start_balancer
  urls=(--url "http://127.0.0.1:$balancer_port")
fi

say "running: outflank-load ${urls[*]} ${tool_args[*]} $*"
"${tool_pin[@]}" "$tool_bin" "${urls[@]}" "${server_pid_args[@]}" "${tool_args[@]}" "$@" || status=$?
if [ "$status" -eq 0 ] && [ ${#quick_args[@]} -gt 0 ]; then
  say "running: outflank-load ${urls[*]} ${quick_args[*]}"
  "${tool_pin[@]}" "$tool_bin" "${urls[@]}" "${server_pid_args[@]}" "${quick_args[@]}" || status=$?
fi
if [ "$status" -eq 0 ] && [ ${#max_args[@]} -gt 0 ]; then
  say "running: outflank-load ${urls[*]} ${max_args[*]}"
  "${tool_pin[@]}" "$tool_bin" "${urls[@]}" "${server_pid_args[@]}" "${max_args[@]}" || status=$?
fi

last_run=run
if [ "$status" -eq 0 ] && [ ${#flood_args[@]} -gt 0 ]; then
  check_nodes run
  stop_servers
  server_env+=(OUTFLANK_ADMISSION_LAG_MS=20)
  start_nodes flood
  last_run=flood
  say "running (joins during a move flood): outflank-load ${urls[*]} ${flood_args[*]}"
  "${tool_pin[@]}" "$tool_bin" "${urls[@]}" "${server_pid_args[@]}" "${flood_args[@]}" | tee "$work/report-flood.txt" \
    || status=$?
  say "$(grep -o '[0-9]* set-ups refused as busy' "$work/report-flood.txt" || echo 'no set-up count'): the rest were set up at once"
fi

if [ "$mode" = balancer ] && [ "$status" -eq 0 ]; then
  upgrades=$(grep -c '" 101 ' "$work/nginx/access.log" || true)
  if [ "$upgrades" -eq 0 ]; then
    say "no WebSocket went through the balancer"
    status=1
  else
    say "the balancer passed $upgrades WebSocket upgrades"
  fi
fi

check_nodes "$last_run"
stop_servers
exit "$status"
