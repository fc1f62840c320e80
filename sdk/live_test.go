package sdk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/cli"
	"svc/internal/openapi"
	"svc/sdk/go/svcclient"
)

// question is answered by sdk/testdata/kb.jsonl's curated Q&A entry.
const question = "How long is the warranty on the Trailmaster tent?"

// lockedBuffer collects a server's log lines, written from many goroutines.
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

// liveServer is a real `svc serve` run in this process by the command line's own entry point.
type liveServer struct {
	dir  string
	base string
	env  func(string) string
}

// runCLI runs one svc command on the server's data and decodes the JSON object it prints.
func (s *liveServer) runCLI(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), args, cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: s.env})
	var m map[string]any
	if code != 0 || json.Unmarshal(out.Bytes(), &m) != nil {
		t.Fatalf("svc %s: exit %d: %s %s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return m
}

// account creates an account and returns its key; with kb, it imports sdk/testdata/kb.jsonl.
func (s *liveServer) account(t *testing.T, name string, sendRate int, kb bool) string {
	t.Helper()
	m := s.runCLI(t, "account", "create", "--name", name, "--balance-usd", "5", "--send-rate-per-min", strconv.Itoa(sendRate))
	if kb {
		s.runCLI(t, "kb", "import", "--account", strconv.FormatFloat(m["account_id"].(float64), 'f', 0, 64), filepath.Join("testdata", "kb.jsonl"))
	}
	return m["api_key"].(string)
}

// startServer runs `svc serve` on a fresh data directory until the test ends. It is ready
// once it printed its address: it listens from then on, and a request that arrives before
// it serves waits in the listen queue.
func startServer(t *testing.T) *liveServer {
	t.Helper()
	s := &liveServer{dir: t.TempDir()}
	s.env = func(k string) string {
		switch k {
		case "SVC_DATA":
			return s.dir
		case "SVC_CRAWL_ALLOW_PRIVATE":
			return "1" // the crawl test's site is on the loopback
		}
		return ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	logs := &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, cli.Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: logs, Getenv: s.env})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadBytes('\n')
	go io.Copy(io.Discard, pr)
	var started struct {
		Addr string `json:"addr"`
	}
	if err != nil || json.Unmarshal(line, &started) != nil || started.Addr == "" {
		cancel()
		t.Fatalf("svc serve did not start: %v %q\n%s", err, line, logs.String())
	}
	s.base = "http://" + started.Addr
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("svc serve exited %d:\n%s", code, logs.String())
			}
		case <-time.After(20 * time.Second):
			t.Error("svc serve did not stop")
		}
	})
	return s
}

// kbAvailable says whether the server describes, and so serves, the knowledge-base API.
func kbAvailable() bool {
	return bytes.Contains(openapi.Document(), []byte(`"/api/v1/kb/qaCreate"`))
}

// crawlSite is a one-page site the server may crawl.
func crawlSite(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html lang="en"><head><title>Care</title></head><body><h1>Care</h1><p>Wash the sleeping bag at thirty degrees.</p></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// The three libraries against one real server: the Go library's calls here, the TypeScript
// and Python libraries' own test suites (node --test, python3 -m unittest) and the three
// quickstarts, each library on accounts of its own.
func TestLibrariesAgainstServer(t *testing.T) {
	srv := startServer(t)
	site := crawlSite(t)
	kb := "0"
	if kbAvailable() {
		kb = "1"
	} else {
		t.Log("the OpenAPI document has no knowledge-base API yet: the libraries' KB tests are skipped")
	}
	keys := map[string]string{}
	for _, name := range []string{"go", "typescript", "python", "quickstart"} {
		keys[name] = srv.account(t, "SDK "+name, 1000, true)
		keys[name+"-limited"] = srv.account(t, "SDK "+name+" limited", 1, false)
	}
	envFor := func(lib string) []string {
		return append(os.Environ(), "SVC_BASE_URL="+srv.base, "SVC_API_KEY="+keys[lib], "SVC_LIMITED_API_KEY="+keys[lib+"-limited"],
			"SVC_TEST_KB="+kb, "SVC_TEST_CRAWL_URL="+site, "PYTHONDONTWRITEBYTECODE=1")
	}
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		goLibrary(t, srv.base, keys["go"], keys["go-limited"], kb == "1", site)
	})
	t.Run("typescript", func(t *testing.T) {
		t.Parallel()
		node := requireTool(t, "node")
		files, _ := filepath.Glob(filepath.Join("typescript", "test", "*.test.mjs"))
		for i := range files {
			files[i], _ = filepath.Rel("typescript", files[i])
		}
		out := runTool(t, "typescript", envFor("typescript"), node, append([]string{"--test"}, files...)...)
		if strings.Contains(out, "are not set") || !strings.Contains(out, "# fail 0") {
			t.Errorf("the live tests did not all run and pass:\n%s", out)
		}
	})
	t.Run("python", func(t *testing.T) {
		t.Parallel()
		py := requireTool(t, "python3")
		out := runTool(t, "python", envFor("python"), py, "-m", "unittest", "-v")
		if strings.Contains(out, "are not set") {
			t.Errorf("the live tests were skipped:\n%s", out)
		}
	})
	t.Run("quickstarts", func(t *testing.T) {
		t.Parallel()
		env := envFor("quickstart")
		bin := filepath.Join(t.TempDir(), "quickstart")
		runTool(t, ".", os.Environ(), "go", "build", "-o", bin, "./go/examples/quickstart")
		checkQuickstart(t, "go", runQuiet(t, env, bin, question))
		t.Run("node", func(t *testing.T) {
			checkQuickstart(t, "node", runQuiet(t, env, requireTool(t, "node"), filepath.Join("typescript", "examples", "quickstart", "quickstart.mjs"), question))
		})
		t.Run("python", func(t *testing.T) {
			checkQuickstart(t, "python", runQuiet(t, env, requireTool(t, "python3"), filepath.Join("python", "examples", "quickstart", "quickstart.py"), question))
		})
	})
}

// runTool runs a program in dir and returns its output; a failure fails the test with it.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	t.Logf("%s %s:\n%s", filepath.Base(name), strings.Join(args, " "), out)
	return string(out)
}

// runQuiet runs a program and returns its standard output alone.
func runQuiet(t *testing.T, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	return out
}

// checkQuickstart holds a quickstart's output to DECISIONS.md: exactly one JSON object
// {"body","source","lowConfidence","sources"} of the assistant's reply.
func checkQuickstart(t *testing.T, which string, out []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	var reply map[string]json.RawMessage
	if err := dec.Decode(&reply); err != nil {
		t.Fatalf("%s quickstart: not a JSON object: %q", which, out)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		t.Fatalf("%s quickstart: more than one JSON value: %q", which, out)
	}
	var keys []string
	for k := range reply {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"body", "lowConfidence", "source", "sources"}) {
		t.Fatalf("%s quickstart: keys %v: %s", which, keys, out)
	}
	var r struct {
		Body          string             `json:"body"`
		Source        string             `json:"source"`
		LowConfidence bool               `json:"lowConfidence"`
		Sources       []svcclient.Source `json:"sources"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Sources == nil {
		t.Fatalf("%s quickstart: %v: %s", which, err, out)
	}
	if !strings.Contains(r.Body, "five-year") || r.LowConfidence ||
		!slices.Contains([]string{"ai", "cache_tenant", "cache_shared", "system", "fallback"}, r.Source) {
		t.Errorf("%s quickstart: the reply does not answer: %s", which, out)
	}
}

// refused checks that err is the service's refusal with this status and code.
func refused(t *testing.T, err error, status int, code string) {
	t.Helper()
	var ae *svcclient.APIError
	if !errors.As(err, &ae) || ae.Status != status || ae.Code != code || ae.Message == "" || ae.RequestID == "" {
		t.Errorf("want %d %s, got %#v", status, code, err)
	}
}

// goLibrary runs the Go library's calls against the server, as the other libraries' live
// tests do theirs.
func goLibrary(t *testing.T, base, key, limitedKey string, kb bool, site string) {
	ctx := context.Background()
	c, err := svcclient.New(base, key)
	if err != nil {
		t.Fatal(err)
	}

	// Conversation.
	sent, err := c.Send(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	reply := sent.Reply()
	if len(sent.Messages) != 2 || sent.Messages[0].Role != "user" || reply.Role != "assistant" ||
		!strings.Contains(reply.Body, "five-year") || sent.LowConfidence || reply.Sources == nil || reply.CreatedAt.IsZero() {
		t.Errorf("send: %+v", sent)
	}
	started, err := c.Start(ctx)
	if err != nil || started.ConversationID != sent.ConversationID || !slices.Contains([]string{"tr", "en", "de"}, started.Lang) ||
		!slices.ContainsFunc(started.Messages, func(m svcclient.Message) bool { return m.ID == reply.ID }) {
		t.Errorf("start: %+v %v", started, err)
	}
	synced, err := c.Sync(ctx, sent.Messages[0].ID)
	if err != nil || len(synced.Messages) != 1 || synced.Messages[0].ID != reply.ID {
		t.Errorf("sync: %+v %v", synced, err)
	}
	if sugg, err := c.Suggestions(ctx); err != nil || sugg.Seeds == nil {
		t.Errorf("suggestions: %+v %v", sugg, err)
	}
	if err := c.Feedback(ctx, reply.ID, svcclient.Helpful, "clear"); err != nil {
		t.Errorf("feedback: %v", err)
	}

	// Account.
	info, err := c.APIKey(ctx)
	if err != nil || !regexp.MustCompile(`^svc_pk_[0-9a-f]{8}$`).MatchString(info.APIKey.APIKeyPrefix) || !strings.HasPrefix(key, info.APIKey.APIKeyPrefix) {
		t.Errorf("apiKey: %+v %v", info, err)
	}
	if u, err := c.UsageSummary(ctx); err != nil || u.WindowDays != 30 {
		t.Errorf("usageSummary: %+v %v", u, err)
	}
	if tone, err := c.GetTone(ctx); err != nil || !slices.Contains(tone.Presets, tone.Preset) {
		t.Errorf("getTone: %+v %v", tone, err)
	}

	// Embed tokens.
	created, err := c.EmbedTokenCreate(ctx, svcclient.EmbedTokenSettings{Domains: []string{"shop.example"}, Label: svcclient.Ptr("Go"),
		Title: svcclient.Ptr("Help"), Welcome: svcclient.Ptr("Hi!"), Position: svcclient.Ptr("left"), Theme: svcclient.Ptr("dark")})
	if err != nil || !regexp.MustCompile(`^svc_emb_[A-Za-z0-9]{32}$`).MatchString(created.Token) {
		t.Fatalf("embedTokenCreate: %+v %v", created, err)
	}
	if err := c.EmbedTokenUpdate(ctx, created.ID, svcclient.EmbedTokenSettings{Label: svcclient.Ptr("Go 2"), DailyBudgetUSD: svcclient.Ptr("2.50")}); err != nil {
		t.Errorf("embedTokenUpdate: %v", err)
	}
	tokens, err := c.EmbedTokens(ctx)
	i := slices.IndexFunc(tokens, func(tok svcclient.EmbedToken) bool { return tok.ID == created.ID })
	if err != nil || i < 0 || tokens[i].Label != "Go 2" || tokens[i].DailyBudgetUSD != "2.5000" || tokens[i].Status != "active" ||
		!slices.Equal(tokens[i].AllowedDomains, []string{"shop.example"}) {
		t.Errorf("embedTokens: %+v %v", tokens, err)
	}
	if err := c.EmbedTokenRevoke(ctx, created.ID); err != nil {
		t.Errorf("embedTokenRevoke: %v", err)
	}
	refused(t, c.EmbedTokenRevoke(ctx, 999999), 404, "not_found")

	// Generators.
	m, err := c.MarketingGenerate(ctx, svcclient.MarketingRequest{Brief: "A social post about our tents for weekend campers", Lang: "en", Variants: 2})
	if err != nil {
		t.Fatalf("marketingGenerate: %v", err)
	}
	if lean, err := m.Lean(); err != nil || lean.Headline == "" || len(lean.Variants) != 2 {
		t.Errorf("marketingGenerate: %+v %v", lean, err)
	}
	data, err := c.Intelligence(ctx, svcclient.OpData, svcclient.IntelligenceRequest{Type: "products", Format: "table"})
	if err != nil {
		t.Fatalf("intelligence data: %v", err)
	}
	if table, err := data.Table(); err != nil || len(table.Columns) == 0 || data.Meta.Total == nil || *data.Meta.Total < 2 {
		t.Errorf("intelligence data: %+v %v", data, err)
	}
	answer, err := c.Intelligence(ctx, svcclient.OpAnswer, svcclient.IntelligenceRequest{Question: "How long does delivery to Germany take?", Format: "text"})
	if err != nil {
		t.Fatalf("intelligence answer: %v", err)
	}
	if _, err := answer.Text(); err != nil || answer.Op != "answer" {
		t.Errorf("intelligence answer: %+v %v", answer, err)
	}

	// Refusals.
	_, err = c.Send(ctx, "")
	refused(t, err, 400, "bad_request")
	stranger, _ := svcclient.New(base, "svc_pk_00000000000000000000000000000000")
	_, err = stranger.GetTone(ctx)
	refused(t, err, 401, "unauthorized")
	// The wait the server asks for is longer than the client may wait: returned at once.
	limited, _ := svcclient.New(base, limitedKey, svcclient.WithRetries(2, 0))
	if _, err := limited.Send(ctx, "Hello!"); err != nil {
		t.Fatal(err)
	}
	_, err = limited.Send(ctx, "Hello again!")
	refused(t, err, 429, "rate_limited")
	if ae := (*svcclient.APIError)(nil); errors.As(err, &ae) && ae.RetryAfter <= 0 {
		t.Errorf("a 429 without a Retry-After: %#v", ae)
	}

	if !kb {
		return
	}
	t.Run("kb", func(t *testing.T) { goKB(t, c, site) })
}

// goKB runs the knowledge-base API's calls (DECISIONS.md "Knowledge-base API").
func goKB(t *testing.T, c *svcclient.Client, site string) {
	ctx := context.Background()
	q := "What is the return window for socks at the Go shop?"
	id, err := c.KBQACreate(ctx, svcclient.QA{Question: &q, Answer: svcclient.Ptr("Socks can be returned within 45 days."), Lang: svcclient.Ptr("en")})
	if err != nil || id <= 0 {
		t.Fatalf("qaCreate: %d %v", id, err)
	}
	list, err := c.KBDocuments(ctx, svcclient.KBDocumentsQuery{Type: "qa", Limit: 100})
	if err != nil || list.Total < len(list.Documents) || !slices.ContainsFunc(list.Documents, func(d svcclient.KBDocument) bool { return d.ID == id && d.Type == "qa" }) {
		t.Errorf("documents: %+v %v", list, err)
	}
	if res, err := c.Send(ctx, q); err != nil || !strings.Contains(res.Reply().Body, "45 days") {
		t.Errorf("send after qaCreate: %+v %v", res, err)
	}
	if err := c.KBQAUpdate(ctx, id, svcclient.QA{Answer: svcclient.Ptr("Socks can be returned within 60 days.")}); err != nil {
		t.Errorf("qaUpdate: %v", err)
	}
	if err := c.KBQADelete(ctx, id); err != nil {
		t.Errorf("qaDelete: %v", err)
	}
	refused(t, c.KBQADelete(ctx, id), 404, "not_found")

	p := svcclient.KBProduct{Name: "Summit Sock", SKU: "GO-SOCK-1", Price: "9.00 EUR", URL: "https://trail.example/en/p/go-sock"}
	if r, err := c.KBProductsUpsert(ctx, []svcclient.KBProduct{p}); err != nil || r.Created != 1 {
		t.Errorf("productsUpsert: %+v %v", r, err)
	}
	p.Price = "11.00 EUR"
	if r, err := c.KBProductsUpsert(ctx, []svcclient.KBProduct{p}); err != nil || r.Created != 0 || r.Updated != 1 {
		t.Errorf("productsUpsert by sku: %+v %v", r, err)
	}
	if r, err := c.KBProductsUpsertFile(ctx, "products.csv", strings.NewReader("name,sku,price\nValley Sock,GO-SOCK-2,7.00 EUR\n")); err != nil || r.Created != 1 {
		t.Errorf("productsUpsert file: %+v %v", r, err)
	}

	counts, err := c.KBImport(ctx, strings.NewReader(`{"type":"page","url":"https://trail.example/en/go-import","title":"Go import","body":"Imported by the Go client.","lang":"en"}`+"\n"))
	if err != nil || counts["pages"] != 1 {
		t.Errorf("import: %v %v", counts, err)
	}
	_, err = c.KBImport(ctx, strings.NewReader("{\"type\":\"page\"}\nnot json\n"))
	refused(t, err, 400, "bad_request")

	up, err := c.KBDocumentUpload(ctx, "care.md", strings.NewReader("# Tent care\n\nDry the Trailmaster tent before storing it.\n"), svcclient.UploadOptions{Lang: "en", Title: "Tent care"})
	if err != nil || len(up.Documents) == 0 || up.Chunks < 1 {
		t.Fatalf("documentUpload: %+v %v", up, err)
	}
	if err := c.KBDocumentDelete(ctx, up.Documents[0]); err != nil {
		t.Errorf("documentDelete: %v", err)
	}
	_, err = c.KBDocumentUpload(ctx, "x.bin", bytes.NewReader([]byte{0, 1, 2, 3, 255, 254}), svcclient.UploadOptions{})
	refused(t, err, 400, "bad_request")

	_, err = c.KBCrawlStatus(ctx, 999999)
	refused(t, err, 404, "not_found")
	crawlID, err := c.KBCrawlStart(ctx, svcclient.CrawlTarget{URL: site})
	if err != nil || crawlID <= 0 {
		t.Fatalf("crawlStart: %d %v", crawlID, err)
	}
	if st, err := c.KBCrawlStatus(ctx, crawlID); err != nil || !slices.Contains([]string{"queued", "running", "done", "failed"}, st.State) {
		t.Errorf("crawlStatus: %+v %v", st, err)
	}
}
