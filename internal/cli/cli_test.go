package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEnv is the environment of a command run against the data directory dir.
func testEnv(dir, stdin string, out, errb *bytes.Buffer) Env {
	return Env{Stdin: strings.NewReader(stdin), Stdout: out, Stderr: errb,
		Getenv: func(k string) string {
			if k == "SVC_DATA" {
				return dir
			}
			return ""
		}}
}

// running is a `svc serve` or `svc demo` started by a test.
type running struct {
	base   string
	stdout bytes.Buffer
	stderr bytes.Buffer
	cancel context.CancelFunc
	done   chan int
}

// startServer runs `svc <command> --addr <free port>` on dir until stop, and waits for
// /healthz.
func startServer(t *testing.T, dir, command string) *running {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{base: "http://" + addr, cancel: cancel, done: make(chan int, 1)}
	go func() { r.done <- Run(ctx, []string{command, "--addr", addr}, testEnv(dir, "", &r.stdout, &r.stderr)) }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(r.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return r
			}
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%s never became healthy: %s", command, r.stderr.String())
		}
	}
}

// stop shuts the server down and fails the test unless it exits 0 in time.
func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.done:
		if code != 0 {
			t.Fatalf("server exited %d: %s", code, r.stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("server did not shut down")
	}
}

// runCLI runs one command against dir and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, dir string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, testEnv(dir, stdin, &out, &errb))
	return code, out.String(), errb.String()
}

func decodeOne(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("stdout is not one JSON object: %q", s)
	}
	if dec.More() {
		t.Fatalf("stdout has more than one JSON object: %q", s)
	}
	return m
}

func TestAccountCommands(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCLI(t, dir, "", "account", "create", "--name", "Acme", "--plan", "growth", "--lang", "de", "--balance-usd", "12.50")
	if code != 0 {
		t.Fatalf("create: %d", code)
	}
	m := decodeOne(t, out)
	if m["account_id"].(float64) != 1 || !strings.HasPrefix(m["api_key"].(string), "svc_pk_") {
		t.Fatalf("create output: %v", m)
	}
	code, out, _ = runCLI(t, dir, "", "account", "show", "--account", "1")
	m = decodeOne(t, out)
	if code != 0 || m["balance"].(float64) != 12.5 || m["plan"] != "growth" || m["daily_answers"].(float64) != 1000 || m["lang"] != "de" {
		t.Fatalf("show: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, "", "account", "update", "--account", "1", "--sales-mode", "off", "--plan", "custom")
	m = decodeOne(t, out)
	if code != 0 || m["sales_mode"] != false || m["daily_answers"] != nil {
		t.Fatalf("update: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, "", "balance", "add", "--account", "1", "--usd", "0.5")
	if m = decodeOne(t, out); code != 0 || m["balance"].(float64) != 13 {
		t.Fatalf("balance: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, "", "tone", "set", "--account", "1", "--preset", "warm", "--custom", "Duzen.")
	if m = decodeOne(t, out); code != 0 || m["preset"] != "warm" || m["custom"] != "Duzen." {
		t.Fatalf("tone: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, "", "key", "rotate", "--account", "1")
	if m = decodeOne(t, out); code != 0 || !strings.HasPrefix(m["api_key"].(string), "svc_pk_") {
		t.Fatalf("rotate: %d %v", code, m)
	}
}

func TestBadArgumentsExit2WithOneLine(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	tests := [][]string{
		{},
		{"nope"},
		{"account"},
		{"account", "delete"},
		{"account", "create"},
		{"account", "create", "--name", "X", "--plan", "gold"},
		{"account", "create", "--name", "X", "--balance-usd", "ten"},
		{"account", "create", "--name", "X", "--lang", "fr"},
		{"account", "update", "--account", "1", "--sales-mode", "maybe"},
		{"account", "show"},
		{"account", "show", "--account", "99"},
		{"account", "show", "--account", "1", "extra"},
		{"balance", "add", "--account", "1", "--usd", "-100"},
		{"balance", "add", "--account", "1"},
		{"tone", "set", "--account", "1", "--preset", "loud"},
		{"tone", "set", "--account", "1"},
		{"key", "rotate", "--account", "42"},
		{"kb", "import", "--account", "1"},
		{"kb", "import", "--account", "1", "/does/not/exist.jsonl"},
		{"account", "show", "--account", "1", "--bogus-flag"},
		{"eval", "xquad", "--dir", "/does/not/exist"},
		{"eval", "xquad", "--dir", ".", "--langs", "fr"},
		{"eval", "xquad", "--dir", ".", "--half", "c"},
		{"site", "add", "--account", "1"},
		{"site", "add", "--account", "1", "--url", "ftp://shop.example"},
		{"site", "add", "--account", "1", "--url", "not a url"},
		{"site", "add", "--account", "99", "--url", "https://shop.example"},
		{"site", "list"},
		{"crawl", "--account", "1"},
		{"crawl", "--account", "1", "mailto:x@y.z"},
		{"crawl", "--account", "1", "--max-pages", "0", "https://shop.example"},
		{"crawl", "--account", "1", "--site", "77", "https://shop.example"},
		{"crawl", "https://shop.example"},
		{"crawl", "--account", "1", "https://a.example", "https://b.example"},
	}
	for _, args := range tests {
		code, out, errOut := runCLI(t, dir, "", args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || out != "" || errOut == "" || !strings.HasPrefix(lines[len(lines)-1], "svc: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// site add is idempotent per URL, a crawl without --site finds the site by host, and a URL
// off the given site is refused.
func TestSiteCommands(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	_, out, _ := runCLI(t, dir, "", "site", "add", "--account", "1", "--url", "https://WWW.Shop.example:443/", "--name", "Shop")
	if got := decodeOne(t, out); got["site_id"] != float64(1) {
		t.Fatalf("site add: %s", out)
	}
	_, out, _ = runCLI(t, dir, "", "site", "add", "--account", "1", "--url", "https://www.shop.example")
	if got := decodeOne(t, out); got["site_id"] != float64(1) {
		t.Fatalf("site add again: %s", out)
	}
	_, out, _ = runCLI(t, dir, "", "site", "add", "--account", "1", "--url", "https://help.example/")
	if got := decodeOne(t, out); got["site_id"] != float64(2) {
		t.Fatalf("second site: %s", out)
	}
	_, out, _ = runCLI(t, dir, "", "site", "list", "--account", "1")
	list := decodeOne(t, out)["sites"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["url"] != "https://www.shop.example/" || list[0].(map[string]any)["name"] != "Shop" {
		t.Fatalf("site list: %s", out)
	}
	if code, _, errOut := runCLI(t, dir, "", "crawl", "--account", "1", "--site", "1", "https://help.example/a"); code != 2 ||
		!strings.Contains(errOut, "not on site 1") {
		t.Fatalf("crawl off-site: %d %s", code, errOut)
	}
}

func TestKBImport(t *testing.T) {
	dir := t.TempDir()
	runCLI(t, dir, "", "account", "create", "--name", "Acme")
	good := `{"type":"page","url":"https://acme.test/ship","title":"Shipping","body":"<p>We ship in <b>two</b> days.</p>","lang":"en"}
{"type":"qa","question":"Do you ship abroad?","answer":"Yes, worldwide.","lang":"en"}
{"type":"product","name":"Boot","price":"119,90 €"}
{"type":"article","slug":"care","title":"Boot care","body":"Clean them.","category_slug":"care","category_name":"Care"}
`
	path := filepath.Join(t.TempDir(), "kb.jsonl")
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, dir, "", "kb", "import", "--account", "1", path)
	m := decodeOne(t, out)
	if code != 0 || m["pages"].(float64) != 1 || m["qa"].(float64) != 1 || m["products"].(float64) != 1 || m["articles"].(float64) != 1 {
		t.Fatalf("import: %d %v", code, m)
	}
	code, out, _ = runCLI(t, dir, good, "kb", "import", "--account", "1", "-")
	if m = decodeOne(t, out); code != 0 || m["unchanged"].(float64) != 4 {
		t.Fatalf("re-import from stdin: %d %v", code, m)
	}
	bad := good + `{"type":"qa","question":"no answer"}` + "\n"
	code, out, errOut := runCLI(t, dir, bad, "kb", "import", "--account", "1", "-")
	if code != 2 || out != "" || !strings.Contains(errOut, "line 5") {
		t.Fatalf("bad line: %d %q %q", code, out, errOut)
	}
}

// `svc serve` answers /healthz, and an operator command run against the same data while it
// serves takes effect on the very next request.
func TestServeWithConcurrentOperatorCommands(t *testing.T) {
	dir := t.TempDir()
	_, out, _ := runCLI(t, dir, "", "account", "create", "--name", "Acme")
	key := decodeOne(t, out)["api_key"].(string)
	srv := startServer(t, dir, "serve")
	base := srv.base
	status := func(k string) int {
		req, _ := http.NewRequest("GET", base+"/api/v1/chat/apiKey", nil)
		req.Header.Set("Authorization", "Bearer "+k)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status(key); got != 200 {
		t.Fatalf("key before rotation: %d", got)
	}
	_, out, _ = runCLI(t, dir, "", "key", "rotate", "--account", "1")
	newKey := decodeOne(t, out)["api_key"].(string)
	if got := status(key); got != 401 {
		t.Fatalf("old key after rotation: %d", got)
	}
	if got := status(newKey); got != 200 {
		t.Fatalf("new key: %d", got)
	}
	srv.stop(t)
	if m := decodeOne(t, srv.stdout.String()); "http://"+m["addr"].(string) != base {
		t.Fatalf("serve output: %v", m)
	}
}
