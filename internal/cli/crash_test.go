package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
	"svc/internal/store/sqlite"
)

// crashChildEnv, when set, makes the test binary run the svc command line it holds instead of
// the tests: how the crash test gets a `svc serve` it can kill -9 without building svc.
const crashChildEnv = "SVC_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(crashChildEnv); args != "" {
		os.Exit(Run(context.Background(), strings.Fields(args),
			Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
	}
	os.Exit(m.Run())
}

// child is a `svc` process run from the test binary.
type child struct {
	cmd    *exec.Cmd
	base   string
	stdout *bufio.Reader
}

func startChild(t *testing.T, dir, addr, providerURL, args string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+args, "SVC_DATA="+dir, "SVC_ADDR="+addr,
		"SVC_PUBLIC_URL=http://"+addr, "SVC_LLM_PROVIDER=openai", "SVC_LLM_BASE_URL="+providerURL,
		"SVC_LLM_API_KEY=provider-key", "SVC_LLM_MODEL=gpt-test", "SVC_LLM_TIMEOUT=30s", "SVC_LLM_MAX_RETRIES=0",
		"SVC_LOG_LEVEL=error")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("svc %s stderr:\n%s", args, stderr.String())
		}
	})
	c := &child{cmd: cmd, base: "http://" + addr, stdout: bufio.NewReader(out)}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(c.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return c
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("svc %s never became ready", args)
		}
	}
}

// lockedBuffer is a bytes.Buffer written by a child's stderr copier and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// reservedMicro is what reservations hold across the store, read beside the server.
func reservedMicro(t *testing.T, dir string) int64 {
	t.Helper()
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ops, err := st.OpsStats(context.Background(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return ops.ReservedMicro
}

// A server killed with SIGKILL while 200 model-backed answers are in flight leaves their
// holds behind. The next server on the data releases them before it serves, so the account
// is not refused for money it has, nothing was charged without its answer, and the ledger
// check passes.
func TestKillDuringSendsThenRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills svc processes")
	}
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: llmanswertest.Script{
		"reply": func(c llmtest.Call) llmtest.Step {
			st := llmanswertest.Script{}.Step(c)
			st.Delay = 20 * time.Second // still in flight when the server dies
			return st
		}}.Step})
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	demo := startChild(t, dir, addr, srv.OpenAIBaseURL(), "demo")
	line, err := demo.stdout.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var seeded struct {
		AccountID int64  `json:"account_id"`
		Key       string `json:"api_key"`
	}
	if err := json.Unmarshal([]byte(line), &seeded); err != nil || seeded.Key == "" {
		t.Fatalf("demo output %q: %v", line, err)
	}
	if code, _, errOut := runCLI(t, dir, "", "account", "update", "--account", fmt.Sprint(seeded.AccountID),
		"--send-rate-per-min", "10000", "--daily-answers", "0"); code != 0 {
		t.Fatalf("account update: %s", errOut)
	}

	const sends = 200
	client := &http.Client{Timeout: 30 * time.Second}
	var wg sync.WaitGroup
	for i := range sends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			form := url.Values{"message": {fmt.Sprintf("How long does delivery to Germany take for order %d?", 5000+i)}}
			req, _ := http.NewRequest(http.MethodPost, demo.base+"/api/v1/chat/send", strings.NewReader(form.Encode()))
			req.Header.Set("Authorization", "Bearer "+seeded.Key)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	// Kill it once answers are in flight, holding money (a few are enough: under -race on a
	// busy machine the server reads the KB for 200 questions slowly).
	for deadline := time.Now().Add(90 * time.Second); srv.CallCount() < 3; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d provider calls started", srv.CallCount())
		}
	}
	if err := demo.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	demo.cmd.Wait()
	wg.Wait()
	held := reservedMicro(t, dir)
	if held == 0 {
		t.Fatal("the killed server held nothing: the test did not catch answers in flight")
	}
	t.Logf("the killed server left %d micro-USD held", held)

	serve := startChild(t, dir, addr, srv.OpenAIBaseURL(), "serve")
	if held := reservedMicro(t, dir); held != 0 {
		t.Fatalf("%d micro-USD still held after the restart", held)
	}
	code, out, errOut := runCLI(t, dir, "", "ledger", "check")
	if code != 0 {
		t.Fatalf("ledger check after the crash: exit %d %s %s", code, out, errOut)
	}
	if r := decodeOne(t, out); r["ok"] != true {
		t.Fatalf("ledger check: %s", out)
	}
	// The account is served again at once, without a balance notice.
	form := url.Values{"message": {"Merhaba"}}
	req, _ := http.NewRequest(http.MethodPost, serve.base+"/api/v1/chat/send", strings.NewReader(form.Encode()))
	req.Header.Set("Authorization", "Bearer "+seeded.Key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		Data struct {
			Messages []struct {
				Source string `json:"source"`
			} `json:"messages"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil || resp.StatusCode != 200 || len(d.Data.Messages) != 2 ||
		d.Data.Messages[1].Source == "system" {
		t.Fatalf("send after the restart: %d %+v %v", resp.StatusCode, d, err)
	}
}
