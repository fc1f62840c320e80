package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/embedding/embedtest"
)

// `svc kb reindex` embeds what is not embedded yet with SVC_EMBED_MODEL and prints counts;
// run again it has nothing to do; without a provider it exits 2 naming the settings; with
// the provider down it exits 1 and keeps what it stored.
func TestKBReindex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := embedtest.Start(t, embedtest.Options{})
	embedEnv := map[string]string{"SVC_DATA": dir, "SVC_EMBED_PROVIDER": "ollama", "SVC_EMBED_BASE_URL": srv.OllamaBaseURL(),
		"SVC_EMBED_MODEL": "concepts", "SVC_EMBED_PRICE_PER_MTOK": "0.02", "SVC_EMBED_TIMEOUT": "2s"}
	run := func(env map[string]string, args ...string) (int, string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return env[k] }})
		return code, out.String(), errb.String()
	}
	if code, _, errOut := run(embedEnv, "account", "create", "--name", "Acme", "--balance-usd", "1"); code != 0 {
		t.Fatal(errOut)
	}
	kb := `{"type":"page","url":"https://acme.test/returns","title":"Returns and refunds","body":"<p>You can return any item within 30 days for a full refund.</p>","lang":"en"}
{"type":"qa","question":"Do you ship abroad?","answer":"Yes, worldwide.","lang":"en"}
{"type":"product","name":"Boot","price":"119,90 €"}
`
	path := filepath.Join(t.TempDir(), "kb.jsonl")
	if err := os.WriteFile(path, []byte(kb), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(embedEnv, "kb", "import", "--account", "1", path); code != 0 {
		t.Fatal(errOut)
	}

	code, out, errOut := run(embedEnv, "kb", "reindex", "--account", "1")
	m := decodeOne(t, out)
	if code != 0 || m["model"] != "concepts" || m["embedded"].(float64) < 3 || m["vectors"] != m["chunks"] ||
		m["tokens"].(float64) <= 0 || m["cost_usd"].(float64) <= 0 || m["refused"].(float64) != 0 {
		t.Fatalf("reindex: %d %v %s", code, m, errOut)
	}
	calls := srv.CallCount()
	if calls == 0 || srv.Calls()[0].Protocol != embedtest.ProtocolOllama {
		t.Fatalf("provider calls: %+v", srv.Calls())
	}
	code, out, _ = run(embedEnv, "kb", "reindex", "--account", "1")
	if m := decodeOne(t, out); code != 0 || m["embedded"].(float64) != 0 || srv.CallCount() != calls {
		t.Fatalf("second reindex: %d %v, %d calls", code, m, srv.CallCount())
	}

	// No provider: a bad invocation, exit 2, one line naming what to set.
	code, out, errOut = run(map[string]string{"SVC_DATA": dir}, "kb", "reindex", "--account", "1")
	if code != 2 || out != "" || !strings.Contains(errOut, "SVC_EMBED_PROVIDER") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("without a provider: %d %q %q", code, out, errOut)
	}
	if code, _, errOut = run(embedEnv, "kb", "reindex"); code != 2 || !strings.Contains(errOut, "--account") {
		t.Fatalf("without --account: %d %q", code, errOut)
	}
	if code, _, errOut = run(embedEnv, "kb", "reindex", "--account", "9"); code != 2 {
		t.Fatalf("an unknown account: %d %q", code, errOut)
	}

	// The provider down: exit 1, saying so.
	more := `{"type":"qa","question":"Can I pay by invoice?","answer":"Yes, for businesses.","lang":"en"}` + "\n"
	if err := os.WriteFile(path, []byte(kb+more), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(embedEnv, "kb", "import", "--account", "1", path); code != 0 {
		t.Fatal(errOut)
	}
	srv.SetDefault(embedtest.Fault{Status: 503})
	code, out, errOut = run(embedEnv, "kb", "reindex", "--account", "1")
	if code != 1 || out != "" || !strings.Contains(errOut, "unavailable") {
		t.Fatalf("provider down: %d %q %q", code, out, errOut)
	}
}
