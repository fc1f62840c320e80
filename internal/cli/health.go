package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"svc/internal/config"
)

// healthTimeout bounds one probe: a container runtime kills a probe that outlives its own
// timeout, and an answer this late means the service is not healthy anyway.
const healthTimeout = 5 * time.Second

// cmdHealth runs `svc health`: one GET of a running server's /readyz, exit 0 when it answers
// 200 and 1 otherwise. It exists for container HEALTHCHECKs: the image is FROM scratch and has
// no curl or shell. Without flags it probes the address serve listens on (SVC_ADDR), so the
// same environment configures both.
func cmdHealth(ctx context.Context, args []string, env Env) error {
	cfg, err := config.Load(env.Getenv)
	if err != nil {
		return usagef("%v", err)
	}
	fs := flag.NewFlagSet("svc health", flag.ContinueOnError)
	// A bad flag is reported in one line by Run; the flag list is printed only on -h.
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", cfg.Addr, "listen address of the server to probe (env SVC_ADDR)")
	rawURL := fs.String("url", "", "full URL to probe instead of http://ADDR/readyz")
	timeout := fs.Duration("timeout", healthTimeout, "give up after this long")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(env.Stderr)
			fmt.Fprintln(env.Stderr, "usage: svc health [--addr HOST:PORT | --url URL] [--timeout D]")
			fs.PrintDefaults()
			return err
		}
		return usagef("health: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("health: unexpected argument %q", fs.Arg(0))
	}
	if *timeout <= 0 {
		return usagef("health: --timeout must be positive")
	}
	target := *rawURL
	if target == "" {
		if target, err = readyzURL(*addr); err != nil {
			return usagef("health: %v", err)
		}
	} else if u, err := url.Parse(target); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usagef("health: --url must be an http(s) URL, not %q", target)
	}

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	if err := probe(ctx, target); err != nil {
		return err
	}
	return json.NewEncoder(env.Stdout).Encode(map[string]string{"status": "ok", "url": target})
}

// readyzURL is the /readyz URL of a server listening on addr. A wildcard host (0.0.0.0, ::
// or none, as in a container's SVC_ADDR=0.0.0.0:8080) is reached on loopback.
func readyzURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "", fmt.Errorf("--addr must be HOST:PORT, not %q", addr)
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz", nil
}

// probe GETs target and succeeds only on a 200.
func probe(ctx context.Context, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	// The probe targets this host's own server: no proxy from the environment, and a redirect
	// is reported rather than followed.
	client := &http.Client{
		Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		// url.Error repeats the method and URL; the cause alone reads better after ours.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("health: %s is not answering: %w", target, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s", target, resp.Status)
	}
	return nil
}
