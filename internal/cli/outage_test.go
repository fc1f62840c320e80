package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// tcpProxy forwards 127.0.0.1 connections to a target; cut closes the listener and every
// open connection (the database "goes away": new dials are refused, pooled connections
// break), restore listens on the same address again.
type tcpProxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        map[net.Conn]struct{}
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{addr: ln.Addr().String(), target: target, conns: map[net.Conn]struct{}{}}
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *tcpProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *tcpProxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // cut while dialling
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	go func() { io.Copy(up, c); up.Close(); c.Close() }()
	io.Copy(c, up)
	c.Close()
	up.Close()
}

func (p *tcpProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *tcpProxy) restore(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("proxy listen again on %s: %v", p.addr, err)
	}
	p.serve(ln)
}

// viaProxy is dbURL with its host replaced by the proxy's address.
func viaProxy(t *testing.T, dbURL string, p *tcpProxy) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.addr
	return u.String()
}

// pgTarget is the host:port of dbURL, what a proxy forwards to.
func pgTarget(t *testing.T, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), "5432")
	}
	return u.Host
}

// apiReply is one response of the running server, decoded.
type apiReply struct {
	status     int
	retryAfter string
	body       map[string]any
	raw        string
}

func call(t *testing.T, method, target, key, form string) apiReply {
	t.Helper()
	req, err := http.NewRequest(method, target, strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	if form != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := apiReply{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), raw: string(b)}
	_ = json.Unmarshal(b, &r.body)
	return r
}

// A database that stops answering makes /readyz and every API request that needs it 503
// with the error envelope and Retry-After (never 500), and the server recovers by itself
// when it is back. Redis down at the same time keeps /readyz ready, reported "fallback",
// and requests succeed on the per-replica fallback.
func TestDatabaseOutageAnswers503AndRecovers(t *testing.T) {
	t.Parallel()
	dbURL, dir := pgSchemaURL(t), t.TempDir()
	var out, errb bytes.Buffer
	setup := testEnv(dir, "", &out, &errb)
	setup.Getenv = func(k string) string {
		if k == "SVC_DATABASE_URL" {
			return dbURL
		}
		return ""
	}
	if code := Run(context.Background(), []string{"account", "create", "--name", "Outage", "--balance-usd", "5"}, setup); code != 0 {
		t.Fatalf("account create: exit %d: %s", code, errb.String())
	}
	key := decodeOne(t, out.String())["api_key"].(string)

	proxy := newTCPProxy(t, pgTarget(t, dbURL))
	deadRedis, err := net.Listen("tcp", "127.0.0.1:0") // a port nothing answers on once closed
	if err != nil {
		t.Fatal(err)
	}
	redisURL := "redis://" + deadRedis.Addr().String() + "/0"
	deadRedis.Close()
	srv := startServerEnv(t, func(r *running) Env {
		e := testEnv(dir, "", &r.stdout, &r.stderr)
		e.Getenv = func(k string) string {
			switch k {
			case "SVC_DATABASE_URL":
				return viaProxy(t, dbURL, proxy)
			case "SVC_REDIS_URL":
				return redisURL
			}
			return ""
		}
		return e
	})
	defer srv.stop(t)

	ready := func() apiReply { return call(t, http.MethodGet, srv.base+"/readyz", "", "") }
	send := func(msg string) apiReply {
		return call(t, http.MethodPost, srv.base+"/api/v1/chat/send", key, "message="+url.QueryEscape(msg))
	}
	if r := ready(); r.status != 200 || r.body["data"].(map[string]any)["database"] != "ok" ||
		r.body["data"].(map[string]any)["redis"] != "fallback" {
		t.Fatalf("readyz with the database up and Redis down: %d %s", r.status, r.raw)
	}
	if r := send("How long does delivery take?"); r.status != 200 {
		t.Fatalf("send with Redis down: %d %s", r.status, r.raw)
	}

	proxy.cut()
	unavailable := func(what string, r apiReply) {
		t.Helper()
		if r.status != http.StatusServiceUnavailable || r.retryAfter == "" || r.body["success"] != false ||
			r.body["error"] != "server_error" || r.body["message"] == "" {
			t.Fatalf("%s with the database down: %d Retry-After %q %s", what, r.status, r.retryAfter, r.raw)
		}
	}
	unavailable("readyz", ready())
	unavailable("send", send("Do you ship abroad?"))
	unavailable("getTone", call(t, http.MethodGet, srv.base+"/api/v1/chat/getTone", key, ""))
	unavailable("sync", call(t, http.MethodGet, srv.base+"/api/v1/chat/sync?after=0", key, ""))

	proxy.restore(t)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if r := ready(); r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz did not recover once the database was back: %s", ready().raw)
		}
	}
	if r := send("Do you ship abroad?"); r.status != 200 {
		t.Fatalf("send after the database came back: %d %s", r.status, r.raw)
	}
	if r := call(t, http.MethodGet, srv.base+"/api/v1/chat/getTone", key, ""); r.status != 200 {
		t.Fatalf("getTone after the database came back: %d %s", r.status, r.raw)
	}
}
