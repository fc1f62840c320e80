#!/usr/bin/env bash
# Throughput shares as issue 14 measured them: wrk (-t2 -c32) against the bare net/http
# reference and a `svc serve` on the bench's 1k KB, side by side, round after round.
#
#   bench/wrk-shares.sh SVC_BINARY KB_DIR [ROUNDS] [SECONDS] [QUESTIONS_FILE]
#
# KB_DIR is a KB folder `svc bench --work DIR` built (DIR/kb-1000-v2). QUESTIONS_FILE holds
# the cache-hit questions, one a line (default: one question of the Super Bowl article);
# with several, wrk's requests take them in turn (a Lua function per request, which costs wrk
# some of its rate: compare the CPU columns). Each is asked
# twice first and must come back from the answer cache (a question the KB does not answer is
# never cached: every send of it would be a cache miss). Needs wrk (Debian's package). Prints
# each round's requests a second, the cache-hit and greeting shares of the bare handler's
# (2xx answers only count), and the servers' CPU time a request, which wrk's own CPU does not
# change.
set -euo pipefail
svc=$(realpath "$1"); kb=$(realpath "$2"); rounds=${3:-3}; secs=${4:-5}; qfile=${5:-}
work=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
key=$(sed -n 's/.*"api_key": "\(.*\)".*/\1/p' "$kb/bench-kb.json")
questions=("How many points did the Panthers defense surrender?")
if [ -n "$qfile" ]; then mapfile -t questions < "$qfile"; fi
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
urlenc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote_plus(sys.argv[1]))' "$1"; }
script() { # $1 key, then the messages: wrk's connections send them in turn
  local k=$1; shift
  if [ $# -eq 1 ]; then # one body for every request, as issue 14 measured (no Lua per request)
    printf 'wrk.method = "POST"\nwrk.body = "message=%s"\nwrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\nwrk.headers["Authorization"] = "Bearer %s"\n' \
      "$(urlenc "$1")" "$k" > "$work/post.lua"
    return
  fi
  { echo 'local bodies = {'
    for m in "$@"; do echo "  \"message=$(urlenc "$m")\","; done
    echo '}'
    echo 'local i = 0'
    echo 'request = function()'
    echo '  i = i % #bodies + 1'
    echo "  return wrk.format(\"POST\", nil, {[\"Content-Type\"] = \"application/x-www-form-urlencoded\", [\"Authorization\"] = \"Bearer $k\"}, bodies[i])"
    echo 'end'
  } > "$work/post.lua"
}
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system, in clock ticks
rate() { # $1 url, $2 server pid: "2xx-requests-a-second microseconds-of-CPU-a-request"
  local c0 c1 out
  c0=$(cpu "$2")
  out=$(wrk -t2 -c32 -d"${secs}s" -s "$work/post.lua" "$1")
  c1=$(cpu "$2")
  echo "$out" | awk -v dc=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" '
    /requests in/ {n=$1} /Non-2xx/ {bad=$NF} /Requests\/sec/ {rps=$2}
    END {printf "%.0f %.0f\n", (n-bad)/(n/rps), 1e6*dc/hz/n}'
}
serve() { # $1 data dir: starts svc serve; sets base and svc_pid
  local p; p=$(port)
  SVC_LOG_LEVEL=${SVC_LOG_LEVEL:-info} "$svc" serve --data "$1" --addr "127.0.0.1:$p" >"$work/serve.log" 2>&1 &
  svc_pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
  base="http://127.0.0.1:$p"
}
source_of() { # $1 key, $2 message: the reply's source
  curl -s -H "Authorization: Bearer $1" --data-urlencode "message=$2" "$base/api/v1/chat/send" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["messages"][-1]["source"])'
}
ref_port=$(port)
"$svc" bench reference --addr "127.0.0.1:$ref_port" >/dev/null 2>&1 &
ref_pid=$!
sleep 0.5
for r in $(seq "$rounds"); do
  script "$key" "${questions[@]}"; read -r bare bare_cpu < <(rate "http://127.0.0.1:$ref_port/api/v1/chat/send" "$ref_pid")
  rm -rf "$work/data"; cp -r "$kb/data" "$work/data"
  greeter_key=$("$svc" account create --data "$work/data" --name greeter --plan custom --balance-usd 100 \
    --send-rate-per-min 1000000 --daily-answers 0 | sed -n 's/.*"api_key":"\([^"]*\)".*/\1/p')
  serve "$work/data"
  for q in "${questions[@]}"; do
    source_of "$key" "$q" >/dev/null
    if [ "$(source_of "$key" "$q")" != cache_tenant ]; then
      echo "\"$q\" is not answered from the cache on this KB: pick questions it answers" >&2; exit 1
    fi
  done
  read -r hit hit_cpu < <(rate "$base/api/v1/chat/send" "$svc_pid")
  script "$greeter_key" hello; read -r greet greet_cpu < <(rate "$base/api/v1/chat/send" "$svc_pid")
  kill "$svc_pid"; wait "$svc_pid" 2>/dev/null || true
  awk -v r="$r" -v b="$bare" -v h="$hit" -v g="$greet" -v bc="$bare_cpu" -v hc="$hit_cpu" -v gc="$greet_cpu" 'BEGIN {
    printf "round %d: bare %d, cache hit %d (%.1f%%), greeting %d (%.1f%%); server CPU a request: bare %d us, hit %d (%.1f%%), greeting %d (%.1f%%)\n",
      r, b, h, 100*h/b, g, 100*g/b, bc, hc, 100*bc/hc, gc, 100*bc/gc }'
done
