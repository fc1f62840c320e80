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
		var env struct {
			Success bool `json:"success"`
		}
		if err := json.Unmarshal(got, &env); err != nil || !env.Success {
			t.Errorf("%s\n  answered %s", ex, got)
		}
	}
	srv.stop(t)
}
