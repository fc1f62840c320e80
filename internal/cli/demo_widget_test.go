package cli

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// `svc demo` prints its demo page's URL and serves the page with the widget installed, on an
// origin its embed token allows; a second run replaces the token instead of piling them up.
func TestDemoServesWidgetPage(t *testing.T) {
	dir := t.TempDir()
	for run := range 2 {
		srv := startServer(t, dir, "demo")
		var out struct {
			Token   string `json:"embed_token"`
			Page    string `json:"demo_page_url"`
			Snippet string `json:"widget_snippet"`
		}
		if err := json.Unmarshal(srv.stdout.Bytes(), &out); err != nil || out.Token == "" || out.Page != srv.base+"/demo/" {
			t.Fatalf("run %d: demo output %q: %v", run, srv.stdout.String(), err)
		}
		if !strings.Contains(out.Snippet, `src="`+srv.base+`/widget.js"`) || !strings.Contains(out.Snippet, out.Token) {
			t.Fatalf("snippet %q", out.Snippet)
		}
		page := get(t, out.Page, nil)
		if !strings.Contains(page, `data-svc-token="`+out.Token+`"`) || !strings.Contains(page, "/widget.js") {
			t.Fatalf("demo page:\n%s", page)
		}
		if js := get(t, srv.base+"/widget.js", nil); !strings.Contains(js, "svc-widget") {
			t.Fatal("widget.js is not the widget")
		}
		// The page's own origin may use the token.
		start := get(t, srv.base+"/api/v1/embed/start", http.Header{"Origin": {srv.base},
			"X-SVC-Embed-Token": {out.Token}, "X-SVC-Visitor": {"0b7c2c70-5a7e-4c1e-9d2e-3a2b1c0d9e8f"}})
		if !strings.Contains(start, `"success":true`) {
			t.Fatalf("embed start from the demo page's origin: %s", start)
		}
		srv.stop(t)
		// Read only once the server has stopped writing its log to it.
		if !strings.Contains(srv.stderr.String(), out.Page) {
			t.Errorf("the demo page URL is not in the human message: %s", srv.stderr.String())
		}
	}
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ts, err := st.EmbedTokens(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	active := 0
	for _, tk := range ts {
		if tk.Status == store.EmbedActive {
			active++
		}
	}
	if len(ts) != 2 || active != 1 {
		t.Fatalf("after two runs: %d tokens, %d active; want the first revoked", len(ts), active)
	}
}

func get(t *testing.T, url string, h http.Header) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, vs := range h {
		req.Header[http.CanonicalHeaderKey(k)] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
