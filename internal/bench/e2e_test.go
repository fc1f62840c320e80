package bench_test

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"svc/internal/bench"
	"svc/internal/cli"
)

// childEnv, when set, makes the test binary run the svc command line in its arguments instead
// of the tests: the bench runs it as its svc binary (--svc), so the end-to-end test needs no
// build. The name has no SVC_ prefix because the bench clears those from its children.
const childEnv = "BENCH_TEST_SVC_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// logWriter sends the bench's progress to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestTinySuite runs every scenario end to end, small: two KBs just above the XQuAD pages'
// 488 chunks in both shapes, short runs, few questions, two cached questions. Then again on
// the same work folder, where the KB is reused and its import not measured.
func TestTinySuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real svc processes; skipped in -short mode")
	}
	xquad := filepath.Join("..", "..", "..", "shared", "eval", "xquad-dev")
	if _, err := os.Stat(filepath.Join(xquad, "xquad.en.dev.json")); err != nil {
		t.Skip("XQuAD dev files not found at " + xquad)
	}
	t.Setenv(childEnv, "1")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cfg := bench.Config{SVC: os.Args[0], Reference: os.Args[0], XQuAD: xquad, Sizes: []int{500, 600}, Duration: 300 * time.Millisecond,
		Conns: 4, Runs: 1, HitQuestions: 2, Warmup: 3, Questions: 20, Writes: 15, CacheFill: 40, RSSRequests: 40, Idle: -1,
		Work: t.TempDir(), Progress: logWriter{t}, Command: "test"}
	r, err := bench.Run(ctx, cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(r.KBs) != 4 {
		t.Fatalf("KBs = %+v", r.KBs)
	}
	for _, k := range r.KBs {
		accounts := map[string]int{bench.ShapeMixed: 1, bench.ShapeLanguages: 3}[k.Shape]
		if k.Reused || k.Accounts != accounts || k.Chunks < accounts*k.Size*98/100 || k.ImportPeakMB <= 0 {
			t.Errorf("KB %+v: want built now, %d accounts of its size within 2%%, an import RSS", k, accounts)
		}
	}
	if tp := r.Through; tp == nil || tp.Bare.PerSecond <= 0 || tp.CacheHit.PerSecond <= 0 || tp.Greeting.PerSecond <= 0 ||
		tp.HitShare <= 0 || tp.RateLimited != 0 || len(tp.Questions) != 2 {
		t.Errorf("throughput = %+v", r.Through)
	} else if _, err := os.Stat("/proc/self/stat"); err == nil && (tp.HitCPUShare <= 0 || tp.CacheHit.CPUPerRequest <= 0) {
		t.Errorf("throughput without the server's CPU a request: %+v", tp)
	}
	if len(r.Latency) != 4 || len(r.Growth) != 2 {
		t.Errorf("latency = %+v, growth %+v", r.Latency, r.Growth)
	}
	for _, l := range r.Latency {
		// Each question of the languages shape goes to its language's account: were it asked
		// in another's, it would find nothing to answer from.
		if l.AI.N == 0 || l.Accounts != map[string]int{bench.ShapeMixed: 1, bench.ShapeLanguages: 3}[l.Shape] {
			t.Errorf("latency %+v", l)
		}
		if _, err := os.Stat("/proc/self/stat"); err == nil && l.CPUPerQuestion <= 0 {
			t.Errorf("latency without the server's CPU a question: %+v", l)
		}
	}
	if w := r.Writes; w == nil || w.Fresh.PerSecond <= 0 || w.Full.PerSecond <= 0 || w.Full.CacheBefore < cfg.CacheFill {
		t.Errorf("writes = %+v", r.Writes)
	}
	if m := r.RSS; m == nil || m.KBSize != 600 || m.VmRSSMB <= 0 || m.VmHWMMB < m.VmRSSMB || m.Sources["cache_tenant"] == 0 {
		t.Errorf("rss = %+v", r.RSS)
	}
	if im := r.Import; im == nil || !im.Measured || im.KBSize != 600 || im.PeakRSSMB <= 0 {
		t.Errorf("import = %+v", r.Import)
	}
	if b := r.Binary; b == nil || b.Bytes <= 0 {
		t.Errorf("binary = %+v", r.Binary)
	}
	if len(r.Goals) < 8 {
		t.Errorf("goals = %+v", r.Goals)
	}

	cfg.Only, cfg.Shapes = []string{bench.ScenarioImport}, []string{bench.ShapeMixed}
	again, err := bench.Run(ctx, cfg)
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	if len(again.KBs) != 1 || !again.KBs[0].Reused || again.Import == nil || again.Import.Measured ||
		!strings.Contains(again.Import.Note, "not measured") {
		t.Errorf("second run: KBs %+v, import %+v", again.KBs, again.Import)
	}
	var md strings.Builder
	if err := bench.WriteMarkdown(&md, again); err != nil || !strings.Contains(md.String(), "not measured") {
		t.Errorf("markdown: %v\n%s", err, md.String())
	}
}

// TestTinyHybrid runs the hybrid scenario end to end on a KB of 700 chunks, in two rounds of
// 12 questions. Its index is exact: a graph (above vecindex's threshold of 2.5M components,
// 650 chunks at 4,096 dimensions) takes minutes to build under the race detector, and the
// wait for one is the same /metrics reading (TestIndexStateAndProviderClock).
func TestTinyHybrid(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real svc processes; skipped in -short mode")
	}
	xquad := filepath.Join("..", "..", "..", "shared", "eval", "xquad-dev")
	if _, err := os.Stat(filepath.Join(xquad, "xquad.en.dev.json")); err != nil {
		t.Skip("XQuAD dev files not found at " + xquad)
	}
	t.Setenv(childEnv, "1")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cfg := bench.Config{SVC: os.Args[0], Reference: os.Args[0], XQuAD: xquad, Sizes: []int{700}, Warmup: 2, Questions: 12,
		Runs: 2, EmbedDim: 512, Only: []string{bench.ScenarioHybrid}, Work: t.TempDir(), Progress: logWriter{t}, Command: "test"}
	r, err := bench.Run(ctx, cfg)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(r.Hybrid) != 1 || len(r.Latency) != 0 {
		t.Fatalf("hybrid %+v, latency %+v", r.Hybrid, r.Latency)
	}
	h := r.Hybrid[0]
	if h.KBSize != 700 || h.Dim != 512 || h.Vectors != h.Chunks || h.Index != "exact" || h.EmbedSeconds <= 0 {
		t.Errorf("hybrid KB: %+v", h)
	}
	if h.Keyword.Asked != 24 || h.Hybrid.Asked != 24 || h.Keyword.AI.N == 0 || h.Hybrid.AI.N == 0 || h.Degraded != 0 ||
		len(h.Rounds) != 2 || h.Rounds[1].Hybrid.N == 0 || h.Rounds[1].Provider.N != 12 {
		t.Errorf("hybrid runs: keyword %+v, hybrid %+v, %d degraded, rounds %+v", h.Keyword, h.Hybrid, h.Degraded, h.Rounds)
	}
	// Every measured question was embedded once, by the provider, and timed there.
	if h.ProviderCalls != 24 || h.ProviderLatency.N != 24 || h.ProviderLatency.P99 <= 0 {
		t.Errorf("provider: %d calls, %+v", h.ProviderCalls, h.ProviderLatency)
	}
	if h.PairedN == 0 || h.AddedP99 == 0 && h.AddedP50 == 0 {
		t.Errorf("added: %+v", h)
	}
	var md strings.Builder
	if err := bench.WriteMarkdown(&md, r); err != nil || !strings.Contains(md.String(), "what hybrid retrieval adds on top of the provider") {
		t.Errorf("markdown: %v\n%s", err, md.String())
	}
}
