package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The README's quick start must stay true: `svc demo` starts, and every curl example in it
// answers with success true.
func TestReadmeCurlExamples(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	sc := bufio.NewScanner(bytes.NewReader(readme))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "curl ") {
			examples = append(examples, line)
		}
	}
	if len(examples) < 10 {
		t.Fatalf("found only %d curl examples in the README", len(examples))
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"demo", "--addr", addr}, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string {
				if k == "SVC_DATA" {
					return dir
				}
				return ""
			}})
	}()
	base := "http://" + addr
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo did not start: %s", errb.String())
		}
	}
	var demo struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(out.Bytes(), &demo); err != nil || demo.APIKey == "" {
		t.Fatalf("demo output %q: %v", out.String(), err)
	}
	for _, ex := range examples {
		cmd := exec.Command("bash", "-c", ex)
		cmd.Env = append(os.Environ(), "KEY="+demo.APIKey, "B="+base)
		got, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: %v", ex, err)
			continue
		}
		var env struct {
			Success bool `json:"success"`
		}
		if err := json.Unmarshal(got, &env); err != nil || !env.Success {
			t.Errorf("%s\n  answered %s", ex, got)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("demo exited %d: %s", code, errb.String())
	}
}
