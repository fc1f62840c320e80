//go:build pprof

// A profiling build (go build -tags pprof ./cmd/svc) serves net/http/pprof on the loopback
// address in PPROF_ADDR (not an SVC_ setting, so that svc bench passes it to its children),
// for the profiles behind BENCHMARKS.md. Release builds do not
// link it, so no default binary can expose a profiler.
package main

import (
	"log/slog"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

func init() {
	addr := os.Getenv("PPROF_ADDR")
	if addr == "" {
		return
	}
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		slog.Error("PPROF_ADDR must be a loopback host:port", "addr", addr)
		return
	}
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			slog.Error("pprof listener", "err", err)
		}
	}()
}
