package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The README's quick start must stay true: `svc demo` starts, and every curl example against
// the demo's address ($B) answers with success true, or, asked for a stream, ends with the
// done event. (The KB API's examples, on $API, name files and ids of the reader's own.)
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
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "curl ") && strings.Contains(line, "$B/") {
			examples = append(examples, line)
		}
	}
	if len(examples) < 10 {
		t.Fatalf("found only %d curl examples in the README", len(examples))
	}

	srv := startServer(t, t.TempDir(), "demo")
	base := srv.base
	var demo struct {
		APIKey string `json:"api_key"`
	}
	if err := json.Unmarshal(srv.stdout.Bytes(), &demo); err != nil || demo.APIKey == "" {
		t.Fatalf("demo output %q: %v", srv.stdout.String(), err)
	}
	for _, ex := range examples {
		cmd := exec.Command("bash", "-c", ex)
		cmd.Env = append(os.Environ(), "KEY="+demo.APIKey, "B="+base)
		got, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: %v", ex, err)
			continue
		}
		if strings.Contains(ex, "text/event-stream") {
			if !strings.HasPrefix(string(got), "event: user\n") || !strings.Contains(string(got), "\nevent: done\n") {
				t.Errorf("%s\n  streamed %s", ex, got)
			}
			continue
		}
		var env struct {
			Success bool `json:"success"`
		}
		if err := json.Unmarshal(got, &env); err != nil || !env.Success {
			t.Errorf("%s\n  answered %s", ex, got)
		}
	}
	srv.stop(t)
}
