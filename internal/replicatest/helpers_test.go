package replicatest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/demo"
	"svc/internal/notify/smtptest"
	"svc/internal/store/teststore"
)

// pgSchemaURL is teststore.SchemaURL: a URL whose connections use a fresh schema.
func pgSchemaURL(t *testing.T) string { return teststore.SchemaURL(t) }

// buildSvc builds the svc binary once into a temporary directory.
func buildSvc(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "svc")
	cmd := exec.Command("go", "build", "-o", bin, "svc/cmd/svc")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// syncBuffer is a bytes.Buffer safe for a process's writer and the test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// replica is one `svc serve` process.
type replica struct {
	name   string
	cmd    *exec.Cmd
	base   string
	stderr *syncBuffer
	exited chan struct{}
}

// startReplica runs `svc serve --addr 127.0.0.1:0` with env, reads the address it printed
// and waits for /readyz.
func startReplica(t *testing.T, bin, name string, env []string) *replica {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = env
	r := &replica{name: name, cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = r.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		if t.Failed() {
			log := r.stderr.String()
			if len(log) > 6000 {
				log = log[len(log)-6000:]
			}
			t.Logf("%s's log (the end):\n%s", name, log)
		}
		select {
		case <-r.exited:
			return
		default:
		}
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-r.exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-r.exited
		}
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		t.Fatalf("%s printed no address: %v\n%s", name, err, r.stderr.String())
	}
	go io.Copy(io.Discard, stdout)
	var printed struct {
		Addr string `json:"addr"`
	}
	if err := json.Unmarshal(line, &printed); err != nil || printed.Addr == "" {
		t.Fatalf("%s printed %q", name, line)
	}
	r.base = "http://" + printed.Addr
	waitFor(t, 20*time.Second, name+" ready", func() bool {
		resp, err := http.Get(r.base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return r
}

// stop ends the replica gracefully (SIGINT) and waits for it.
func (r *replica) stop(t *testing.T) {
	t.Helper()
	r.cmd.Process.Signal(os.Interrupt)
	select {
	case <-r.exited:
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not stop", r.name)
	}
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
	}
}

// clients are HTTP clients whose connections leave from one loopback address each, so the
// server sees distinct client addresses (127.0.0.0/8 is all loopback on Linux).
type clients struct {
	mu sync.Mutex
	by map[string]*http.Client
}

func (c *clients) from(ip string) *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]*http.Client{}
	}
	if cl, ok := c.by[ip]; ok {
		return cl
	}
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 8},
		Timeout: 60 * time.Second, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c.by[ip] = cl
	return cl
}

// reply is one decoded response.
type reply struct {
	status     int
	retryAfter string
	body       string
	env        struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   string          `json:"error"`
	}
}

func do(cl *http.Client, req *http.Request) (reply, error) {
	resp, err := cl.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(b)}
	_ = json.Unmarshal(b, &r.env)
	return r, nil
}

// api calls a Chat API action with the secret key.
func api(t *testing.T, cl *http.Client, base, method, action, key string, form url.Values) reply {
	t.Helper()
	req, err := http.NewRequest(method, base+"/api/v1/chat/"+action, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+key)
	r, err := do(cl, req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, action, err)
	}
	return r
}

// widgetOrigin is the page the widget's tokens allow.
const widgetOrigin = "https://shop.example.com"

// embedReq is a widget call: the token, the visitor's UUID and the page's Origin.
func embedReq(t *testing.T, base, method, action, token, visitor string, body map[string]string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+"/api/v1/embed/"+action, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-SVC-Embed-Token", token)
	req.Header.Set("X-SVC-Visitor", visitor)
	req.Header.Set("Origin", widgetOrigin)
	return req
}

// visitor is a well-formed visitor UUID numbered n within group g.
func visitor(g, n int) string {
	return "7d444840-9dc0-41d4-a716-" + pad(g, 4) + pad(n, 8)
}

func pad(n, width int) string {
	s := strings.Repeat("0", width) + itoa(n)
	return s[len(s)-width:]
}

func itoa(n int) string { return strconv.Itoa(n) }

// received is the recipients of every message mb has received, one entry a message.
func received(mb *smtptest.Mailbox) []string {
	var out []string
	for _, m := range mb.Messages() {
		out = append(out, strings.Join(m.To, ","))
	}
	return out
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

// writeDemoKB writes the demo knowledge base as JSON Lines to path.
func writeDemoKB(t *testing.T, path string) {
	t.Helper()
	b, err := io.ReadAll(demo.Reader())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
