#!/usr/bin/env bash
# Throughput shares as issue 14 measured them: wrk (-t2 -c32) against the bare net/http
# reference and a `svc serve` on the bench's 1k KB, side by side, round after round.
#
#   bench/wrk-shares.sh SVC_BINARY KB_DIR [ROUNDS] [SECONDS]
#
# KB_DIR is a KB folder `svc bench --work DIR` built (DIR/kb-1000-v2). Needs wrk (Debian's
# package). Prints each round's requests a second and the cache-hit and greeting shares of the
# bare handler's; 2xx answers only count.
set -euo pipefail
svc=$(realpath "$1"); kb=$(realpath "$2"); rounds=${3:-3}; secs=${4:-5}
work=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
key=$(sed -n 's/.*"api_key": "\(.*\)".*/\1/p' "$kb/bench-kb.json")
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
script() { # $1 message, $2 key
  cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = "message=$1"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Bearer $2"
LUA
}
rate() { # $1 url: 2xx requests a second
  wrk -t2 -c32 -d"${secs}s" -s "$work/post.lua" "$1" | awk '
    /requests in/ {n=$1} /Non-2xx/ {bad=$NF} /Requests\/sec/ {rps=$2}
    END {printf "%.0f", (n-bad)/(n/rps)}'
}
serve() { # $1 data dir: starts svc serve; sets base and svc_pid
  local p; p=$(port)
  SVC_LOG_LEVEL=warn "$svc" serve --data "$1" --addr "127.0.0.1:$p" >"$work/serve.log" 2>&1 &
  svc_pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
  base="http://127.0.0.1:$p"
}
ref_port=$(port)
"$svc" bench reference --addr "127.0.0.1:$ref_port" >/dev/null 2>&1 &
sleep 0.5
question="How+many+points+did+the+Panthers+defense+surrender%3F"
for r in $(seq "$rounds"); do
  script "$question" "$key"; bare=$(rate "http://127.0.0.1:$ref_port/api/v1/chat/send")
  rm -rf "$work/data"; cp -r "$kb/data" "$work/data"
  greeter_key=$("$svc" account create --data "$work/data" --name greeter --plan custom --balance-usd 100 \
    --send-rate-per-min 1000000 --daily-answers 0 | sed -n 's/.*"api_key":"\([^"]*\)".*/\1/p')
  serve "$work/data"
  curl -s -o /dev/null -H "Authorization: Bearer $key" --data "message=$question" "$base/api/v1/chat/send"
  hit=$(rate "$base/api/v1/chat/send")
  script "hello" "$greeter_key"; greet=$(rate "$base/api/v1/chat/send")
  kill "$svc_pid"; wait "$svc_pid" 2>/dev/null || true
  awk -v r="$r" -v b="$bare" -v h="$hit" -v g="$greet" 'BEGIN {
    printf "round %d: bare %d, cache hit %d (%.1f%%), greeting %d (%.1f%%)\n", r, b, h, 100*h/b, g, 100*g/b }'
done
