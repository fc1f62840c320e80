package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/demo"
)

// TestReviewLoop is the feedback loop end to end: an answer rated not_helpful is listed by
// review list, review answer turns the owner's correction into a curated Q&A entry, and the
// next similar question, asked of the running server, gets the correction from the cache.
func TestReviewLoop(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, dir, "", "account", "create", "--name", "Shop", "--balance-usd", "5",
		"--input-per-m-usd", "1.5", "--output-per-m-usd", "12")
	if code != 0 {
		t.Fatalf("account create: %d %s", code, errOut)
	}
	acct := decodeOne(t, out)
	id := fmt.Sprint(acct["account_id"])
	key := acct["api_key"].(string)
	kbFile := filepath.Join(dir, "kb.jsonl")
	data, _ := io.ReadAll(demo.Reader())
	if err := os.WriteFile(kbFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, dir, "", "kb", "import", "--account", id, kbFile); code != 0 {
		t.Fatalf("kb import: %s", errOut)
	}
	code, out, _ = runCLI(t, dir, "", "account", "show", "--account", id)
	if show := decodeOne(t, out); code != 0 || show["input_per_m_usd"] != 1.5 || show["output_per_m_usd"] != 12.0 {
		t.Fatalf("account pricing: %v", show)
	}

	srv := startServer(t, dir, "serve")
	defer srv.stop(t)
	ask := func(q string) (msgID int64, body, source string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.base+"/api/v1/chat/send", strings.NewReader(url.Values{"message": {q}}.Encode()))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env struct {
			Data struct {
				Messages []struct {
					ID     int64  `json:"id"`
					Body   string `json:"body"`
					Source string `json:"source"`
				} `json:"messages"`
			} `json:"data"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || len(env.Data.Messages) != 2 {
			t.Fatalf("send %q: %v %+v", q, err, env)
		}
		m := env.Data.Messages[1]
		return m.ID, m.Body, m.Source
	}
	msgID, _, source := ask("How much does the Uludağ 2 tent weigh?")
	if source != "ai" {
		t.Fatalf("first answer source %q", source)
	}
	form := url.Values{"messageId": {fmt.Sprint(msgID)}, "rating": {"not_helpful"}, "comment": {"wrong weight"}}
	req, _ := http.NewRequest(http.MethodPost, srv.base+"/api/v1/chat/feedback", strings.NewReader(form.Encode()))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("feedback: %v %v", resp, err)
	}

	code, out, _ = runCLI(t, dir, "", "review", "list", "--account", id, "--open")
	var list struct {
		Items []reviewItem `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list.Items) != 1 || list.Items[0].ID != msgID ||
		list.Items[0].Question != "How much does the Uludağ 2 tent weigh?" || list.Items[0].Comment != "wrong weight" {
		t.Fatalf("review list: %d %s", code, out)
	}
	correction := "The Uludağ 2 tent weighs 2.1 kg packed, poles and pegs included."
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"review", "answer", "--account", id, "--text", correction}, 2},
		{[]string{"review", "answer", "--account", id, fmt.Sprint(msgID)}, 2},
		{[]string{"review", "answer", "--account", id, "999", "--text", correction}, 2},
		{[]string{"review", "answer", "--account", id, fmt.Sprint(msgID), "--text", correction}, 0},
	}
	for _, tc := range tests {
		if code, out, errOut := runCLI(t, dir, "", tc.args...); code != tc.code {
			t.Fatalf("%v: exit %d, want %d: %s %s", tc.args, code, tc.code, out, errOut)
		}
	}
	code, out, _ = runCLI(t, dir, "", "review", "list", "--account", id, "--open")
	if code != 0 || !strings.Contains(out, `"items":[]`) {
		t.Fatalf("review item still open: %s", out)
	}
	for _, q := range []string{"How much does the Uludağ 2 tent weigh?", "how much does the uludag 2 tent weigh"} {
		if _, body, source := ask(q); source != "cache_tenant" || body != correction {
			t.Errorf("%q after the correction: %s %q", q, source, body)
		}
	}
}
