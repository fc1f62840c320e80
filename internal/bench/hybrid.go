package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"svc/internal/embedding/embedtest"
	"svc/internal/metrics/metricstest"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Time limits of the hybrid scenario.
const (
	// indexTimeout bounds the wait for a KB's vector index: a graph of 50,000 vectors of
	// 1,024 dimensions took 3.5 minutes single-threaded (BENCHMARKS.md, "Vector search").
	indexTimeout = 30 * time.Minute
	// indexPoll is how often /metrics is read meanwhile.
	indexPoll = 250 * time.Millisecond
	// maxTriggers bounds the questions asked to get an index loaded when a load failed.
	maxTriggers = 3
)

// hybrid measures what retrieval by meaning adds to a cache-miss answer on one mixed KB
// (issue 25: at most 5 ms p99 at 50,000 chunks on top of the provider's own time). On a
// fresh copy of the KB it starts a fake OpenAI-compatible provider in this process
// (embedtest's: vectors from a concept dictionary, deterministic, zero-padded to EmbedDim),
// embeds every chunk with `svc kb reindex`, and copies the embedded KB once more. One copy
// is served without a provider (keyword-only: nothing of semantic retrieval exists in such a
// server, the stored vectors aside), the other with the provider; a question outside the
// measured ones makes the second load the account's index, and the bench waits on /metrics
// until that index is in its final form (a graph above vecindex's threshold, built in the
// background). Then both servers are asked the latency scenario's questions, each question
// of one server right after the other's (which goes first alternates), so that whatever else
// the machine does meets both alike. The fake times each question's embedding where it
// answers it.
func (s *suite) hybrid(ctx context.Context, k kbDir) (Hybrid, error) {
	cfg := s.cfg
	h := Hybrid{KBSize: k.meta.Size, Chunks: k.meta.Chunks, Provider: "openai (in-process fake, embedtest)",
		Model: fmt.Sprintf("bench-concepts-%d", cfg.EmbedDim), Dim: cfg.EmbedDim}
	if len(k.meta.Accounts) > 0 {
		return h, errors.New("the hybrid scenario runs on a mixed KB (one account)")
	}
	clock := &providerClock{}
	fake := embedtest.New(embedtest.Options{Observe: clock.observe, NoRecord: true})
	defer fake.Close()
	if cfg.EmbedDim != embedtest.Dim {
		fake.SetDefault(embedtest.Fault{Dim: cfg.EmbedDim})
	}
	token, err := metricsToken()
	if err != nil {
		return h, err
	}
	withProvider := s.bin.withEnv("SVC_EMBED_PROVIDER=openai", "SVC_EMBED_BASE_URL="+fake.OpenAIBaseURL(),
		"SVC_EMBED_MODEL="+h.Model, "SVC_EMBED_PRICE_PER_MTOK=0", "SVC_METRICS_TOKEN="+token)

	dir, cleanup, err := s.scratch("hybrid-"+k.label(), k)
	if err != nil {
		return h, err
	}
	defer cleanup()
	if err := s.embedKB(ctx, withProvider, dir, k, &h); err != nil {
		return h, err
	}
	kwDir := filepath.Join(dir, "keyword")
	if err := copyData(filepath.Join(dir, "data"), filepath.Join(kwDir, "data")); err != nil {
		return h, fmt.Errorf("copy the embedded KB: %w", err)
	}

	// The latency scenario's questions first, then those of the further rounds, then the
	// questions that load the index (none of them is measured).
	feed := &questionFeed{pool: s.pool}
	warm := feed.takeN(cfg.Warmup)
	rounds := make([][]question, cfg.Runs)
	for i := range rounds {
		rounds[i] = feed.takeN(cfg.Questions)
	}
	triggers := feed.takeN(maxTriggers)
	if feed.synthesized > 0 {
		s.warnf("hybrid: %d of the questions were made from XQuAD questions with a number appended", feed.synthesized)
	}
	kw, err := s.serve(ctx, kwDir)
	if err != nil {
		return h, fmt.Errorf("keyword-only: %w", err)
	}
	defer kw.stop()
	hy, err := s.serveWith(ctx, withProvider, dir)
	if err != nil {
		return h, fmt.Errorf("hybrid: %w", err)
	}
	defer hy.stop()
	targets := []target{{srv: kw, client: newClient(1)}, {srv: hy, client: newClient(1)}}
	for _, t := range targets {
		defer t.client.CloseIdleConnections()
	}
	scr := &scraper{client: &http.Client{Timeout: 10 * time.Second}, url: hy.base + "/metrics", token: token}
	if err := s.waitIndex(ctx, targets[1].client, hy, scr, k, triggers, &h); err != nil {
		return h, err
	}

	names := []string{"keyword-only", "hybrid"}
	s.logf("hybrid %s: %d warm-up questions, then %d rounds of %d, each asked of the keyword-only and the hybrid server in turn",
		k.label(), len(warm), len(rounds), cfg.Questions)
	for i, as := range askInterleaved(ctx, targets, k, warm) {
		if ctx.Err() != nil {
			return h, ctx.Err()
		}
		if len(aiLatencies(as)) == 0 {
			return h, fmt.Errorf("%s: no warm-up question got a built-in answer (%v; first: %s)", names[i], tally(as), outcome(as[0].sent))
		}
	}
	before, err := scr.scrape(ctx)
	if err != nil {
		return h, err
	}
	cpu0 := make([]time.Duration, len(targets))
	cpuOK := true
	for i, t := range targets {
		var ok bool
		cpu0[i], ok = cpuTime(t.srv.pid())
		cpuOK = cpuOK && ok
	}
	all := make([][]answered, len(targets))
	var took []time.Duration
	for r, qs := range rounds {
		clock.start()
		answers := askInterleaved(ctx, targets, k, qs)
		rt := clock.stop()
		if ctx.Err() != nil {
			return h, ctx.Err()
		}
		round := HybridRound{Keyword: summarize(aiLatencies(answers[0])), Hybrid: summarize(aiLatencies(answers[1])),
			Provider: summarize(slices.Clone(rt))}
		round.AddedP99, round.AddedP50 = added(round)
		h.Rounds = append(h.Rounds, round)
		s.logf("hybrid %s: round %d of %d: p99 hybrid %.1f ms, keyword-only %.1f, provider %.2f: adds %+.2f ms (p50 %+.2f)",
			k.label(), r+1, len(rounds), round.Hybrid.P99, round.Keyword.P99, round.Provider.P99, round.AddedP99, round.AddedP50)
		for i := range targets {
			all[i] = append(all[i], answers[i]...)
		}
		took = append(took, rt...)
	}
	runs := []*Latency{&h.Keyword, &h.Hybrid}
	for i, t := range targets {
		as := all[i]
		l := runs[i]
		l.Shape, l.KBSize, l.Accounts, l.Chunks = ShapeMixed, k.meta.Size, 1, k.meta.Chunks
		l.Asked, l.Sources, l.AI = len(as), tally(as), summarize(aiLatencies(as))
		if cpu1, ok := cpuTime(t.srv.pid()); cpuOK && ok && len(as) > 0 {
			l.CPUPerQuestion = round2(float64((cpu1 - cpu0[i]).Microseconds()) / 1000 / float64(len(as)))
		}
		if l.AI.N == 0 {
			return h, fmt.Errorf("%s: no question got a built-in answer (%v)", names[i], l.Sources)
		}
	}
	after, err := scr.scrape(ctx)
	if err != nil {
		return h, err
	}
	h.Degraded = int(after.sum("svc_semantic_degraded_total") - before.sum("svc_semantic_degraded_total"))
	h.ProviderCalls, h.ProviderLatency = len(took), summarize(took)
	h.PairedN, h.PairedMedian = paired(all[0], all[1])
	h.AddedP99, h.AddedP50 = medianAdded(h.Rounds)
	if h.Hybrid.CPUPerQuestion > 0 && h.Keyword.CPUPerQuestion > 0 {
		h.AddedCPU = round2(h.Hybrid.CPUPerQuestion - h.Keyword.CPUPerQuestion)
	}
	if h.Degraded > 0 {
		s.warnf("hybrid %s: %d of the measured questions were searched without vectors (svc_semantic_degraded_total); see %s",
			k.label(), h.Degraded, hy.logPath)
	}
	if h.ProviderCalls < h.Hybrid.Asked {
		s.warnf("hybrid %s: %d questions asked but only %d embedded by the provider", k.label(), h.Hybrid.Asked, h.ProviderCalls)
	}
	kl, hl := h.Keyword, h.Hybrid
	s.logf("hybrid %s: keyword-only p50 %.1f ms, p90 %.1f, p99 %.1f over %d built-in answers %v, %.2f ms of server CPU a question",
		k.label(), kl.AI.P50, kl.AI.P90, kl.AI.P99, kl.AI.N, kl.Sources, kl.CPUPerQuestion)
	s.logf("hybrid %s: hybrid p50 %.1f ms, p90 %.1f, p99 %.1f over %d built-in answers %v, %.2f ms of server CPU a question; provider p50 %.2f ms, p99 %.2f over %d calls",
		k.label(), hl.AI.P50, hl.AI.P90, hl.AI.P99, hl.AI.N, hl.Sources, hl.CPUPerQuestion, h.ProviderLatency.P50,
		h.ProviderLatency.P99, h.ProviderCalls)
	s.logf("hybrid %s: adds %+.2f ms at p99, %+.2f at p50 on top of the provider (medians of the rounds); paired median %+.2f ms over %d; %+.2f ms of server CPU a question",
		k.label(), h.AddedP99, h.AddedP50, h.PairedMedian, h.PairedN, h.AddedCPU)
	return h, nil
}

// target is one server the interleaved questions go to, on a connection of its own.
type target struct {
	srv    *server
	client *http.Client
}

// askInterleaved asks each question of every target in turn, one request at a time, the
// first target first for even questions and last for odd ones, and returns each target's
// outcomes in asking order.
func askInterleaved(ctx context.Context, targets []target, k kbDir, qs []question) [][]answered {
	out := make([][]answered, len(targets))
	for i, q := range qs {
		for j := range targets {
			t := j
			if i%2 == 1 {
				t = len(targets) - 1 - j
			}
			if ctx.Err() != nil {
				return out
			}
			s := newSendReq(targets[t].srv.base, k.keyFor(q.lang), q.text).do(ctx, targets[t].client, true)
			out[t] = append(out[t], answered{q: q, sent: s})
		}
	}
	return out
}

// embedKB embeds every chunk of the scratch KB with `svc kb reindex`, through the fake.
func (s *suite) embedKB(ctx context.Context, bin svcBin, dir string, k kbDir, h *Hybrid) error {
	s.logf("hybrid %s: embedding %d chunks (%d dimensions) with svc kb reindex", k.label(), k.meta.Chunks, h.Dim)
	start := time.Now()
	var rep struct {
		Embedded int `json:"embedded"`
		Refused  int `json:"refused"`
		Chunks   int `json:"chunks"`
		Vectors  int `json:"vectors"`
	}
	if _, err := bin.run(ctx, importTimeout, &rep, "kb", "reindex", "--data", filepath.Join(dir, "data"),
		"--account", strconv.FormatInt(k.meta.AccountID, 10)); err != nil {
		return err
	}
	h.EmbedSeconds, h.Vectors = round2(time.Since(start).Seconds()), rep.Vectors
	if rep.Vectors != rep.Chunks || rep.Refused > 0 {
		return fmt.Errorf("svc kb reindex left the KB partly embedded: %d vectors of %d chunks, %d refused", rep.Vectors, rep.Chunks, rep.Refused)
	}
	s.logf("hybrid %s: %d chunks embedded in %.1f s", k.label(), rep.Vectors, h.EmbedSeconds)
	return nil
}

// waitIndex asks a question outside the measured ones, which makes the server load the
// account's vector index, and waits until /metrics shows every vector held and no load or
// build in flight. A load that failed (no build in flight, vectors missing) is tried again
// with the next trigger question.
func (s *suite) waitIndex(ctx context.Context, client *http.Client, srv *server, scr *scraper, k kbDir, triggers []question,
	h *Hybrid) error {
	start := time.Now()
	deadline := time.NewTimer(indexTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(indexPoll)
	defer tick.Stop()
	lastLog := start
	asked, idle := 0, 0
	for {
		if asked == 0 || idle >= 3 {
			if asked == len(triggers) {
				return fmt.Errorf("the vector index did not load after %d questions (%s); the server's log: %s", asked,
					time.Since(start).Round(time.Second), srv.logTail())
			}
			askAll(ctx, client, 1, srv.base, k.keyFor, listFeed(triggers[asked:asked+1]))
			asked, idle = asked+1, 0
		}
		f, err := scr.scrape(ctx)
		if err != nil {
			return err
		}
		st := indexStateOf(f)
		if st.ready(h.Vectors) {
			h.Index, h.IndexSeconds = st.kind(), round2(time.Since(start).Seconds())
			s.logf("hybrid %s: %s index of %d vectors ready %.1f s after the first question", k.label(), h.Index, h.Vectors, h.IndexSeconds)
			return nil
		}
		if st.builds == 0 {
			idle++
		} else {
			idle = 0
		}
		if time.Since(lastLog) >= 15*time.Second {
			lastLog = time.Now()
			s.logf("hybrid %s: waiting for the vector index: %.0f exact and %.0f graph vectors held, %.0f builds in flight, %s",
				k.label(), st.exact, st.hnsw, st.builds, time.Since(start).Round(time.Second))
		}
		select {
		case <-tick.C:
		case <-srv.done:
			return fmt.Errorf("the server exited while its index was built: %v; its log: %s", srv.waitErr, srv.logTail())
		case <-deadline.C:
			return fmt.Errorf("the vector index was not ready within %s (%+v)", indexTimeout, st)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// indexState is what /metrics says of the vector indexes.
type indexState struct {
	exact, hnsw, builds float64
}

func indexStateOf(f families) indexState {
	return indexState{exact: f.value("svc_vector_index_vectors", map[string]string{"kind": "exact"}),
		hnsw: f.value("svc_vector_index_vectors", map[string]string{"kind": "hnsw"}), builds: f.sum("svc_vector_index_builds")}
}

// ready says whether the indexes hold want vectors with no load or build in flight.
func (st indexState) ready(want int) bool {
	return st.builds == 0 && st.exact+st.hnsw >= float64(want)
}

// kind names the index that serves: hnsw once a graph holds the vectors.
func (st indexState) kind() string {
	if st.hnsw > 0 {
		return "hnsw"
	}
	return "exact"
}

// added is the round's hybrid p99 (p50) less its keyword-only p99 (p50) less the provider's
// p99 (p50): what retrieval by meaning adds on top of the provider. Percentiles do not
// subtract exactly; it is the reading, and the paired median is beside it.
func added(r HybridRound) (p99, p50 float64) {
	if r.Hybrid.N == 0 || r.Keyword.N == 0 {
		return 0, 0
	}
	return round2(r.Hybrid.P99 - r.Keyword.P99 - r.Provider.P99), round2(r.Hybrid.P50 - r.Keyword.P50 - r.Provider.P50)
}

// medianAdded is the median over the rounds of what each adds at p99 and at p50: a burst of
// the machine's other work moves one round's tail, not the median.
func medianAdded(rounds []HybridRound) (p99, p50 float64) {
	var a99, a50 []float64
	for _, r := range rounds {
		if r.Hybrid.N > 0 && r.Keyword.N > 0 {
			a99, a50 = append(a99, r.AddedP99), append(a50, r.AddedP50)
		}
	}
	return round2(median(a99)), round2(median(a50))
}

// paired is the median of hybrid less keyword-only time over the questions both runs gave a
// built-in answer, and how many those are.
func paired(keyword, hybrid []answered) (n int, medianMS float64) {
	kw := map[string]float64{}
	for _, a := range keyword {
		if a.err == nil && a.status == http.StatusOK && a.source == sourceAI {
			kw[a.q.lang+"\x00"+a.q.text] = ms(a.latency)
		}
	}
	var diffs []float64
	for _, a := range hybrid {
		if a.err == nil && a.status == http.StatusOK && a.source == sourceAI {
			if k, ok := kw[a.q.lang+"\x00"+a.q.text]; ok {
				diffs = append(diffs, ms(a.latency)-k)
			}
		}
	}
	return len(diffs), round2(median(diffs))
}

// providerClock collects the fake provider's time for each question's embedding while it
// runs: a question is embedded alone, a KB's chunks in batches, so a call of one text is a
// question's.
type providerClock struct {
	mu   sync.Mutex
	on   bool
	took []time.Duration
}

func (c *providerClock) observe(protocol string, texts int, took time.Duration) {
	if protocol != embedtest.ProtocolOpenAI || texts != 1 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.on {
		c.took = append(c.took, took)
	}
}

func (c *providerClock) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on, c.took = true, nil
}

// stop ends the collection and returns the times collected since start.
func (c *providerClock) stop() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	return slices.Clone(c.took)
}

// metricsToken is a fresh SVC_METRICS_TOKEN for one server.
func metricsToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "bench-" + hex.EncodeToString(b), nil
}

// scraper reads a server's /metrics.
type scraper struct {
	client *http.Client
	url    string
	token  string
}

// families are one scrape's metric families.
type families struct{ metricstest.Families }

func (f families) value(name string, labels map[string]string) float64 {
	v, _ := f.Value(name, labels)
	return v
}

// sum is the value of every series of name added up.
func (f families) sum(name string) float64 { return f.value(name, nil) }

func (s *scraper) scrape(ctx context.Context) (families, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return families{}, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := s.client.Do(req)
	if err != nil {
		return families{}, fmt.Errorf("read /metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return families{}, fmt.Errorf("read /metrics: status %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		return families{}, fmt.Errorf("read /metrics: %w", err)
	}
	return families{fams}, nil
}
