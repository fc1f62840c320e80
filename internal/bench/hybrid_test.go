package bench

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/embedding/embedtest"
)

// The hybrid scenario runs only when asked for by name, on every size of the mixed shape.
func TestHybridIsOptIn(t *testing.T) {
	t.Parallel()
	c := Config{SVC: "x", Sizes: []int{1000, 10000}}.withDefaults()
	if c.runs(ScenarioHybrid) || !c.runs(ScenarioLatency) {
		t.Errorf("by default: hybrid %v, latency %v", c.runs(ScenarioHybrid), c.runs(ScenarioLatency))
	}
	if got := settingsOf(c).Scenarios; slices.Contains(got, ScenarioHybrid) || len(got) != len(Scenarios)-1 {
		t.Errorf("default scenarios = %v", got)
	}
	c.Only = []string{ScenarioHybrid}
	if !c.runs(ScenarioHybrid) || c.runs(ScenarioLatency) {
		t.Errorf("--only hybrid: hybrid %v, latency %v", c.runs(ScenarioHybrid), c.runs(ScenarioLatency))
	}
	if got := c.neededKBs(); !slices.Equal(got, []kbKey{{ShapeMixed, 1000}, {ShapeMixed, 10000}}) {
		t.Errorf("needed for hybrid = %v", got)
	}
	if c.EmbedDim != 384 {
		t.Errorf("default dimension %d", c.EmbedDim)
	}
	for _, dim := range []int{embedtest.Dim - 1, maxEmbedDim + 1, -3} {
		if err := (Config{SVC: "x", EmbedDim: dim}).Validate(); err == nil {
			t.Errorf("embed dim %d accepted", dim)
		}
	}
	if err := (Config{SVC: "x", EmbedDim: 1024, Only: []string{ScenarioHybrid}}).Validate(); err != nil {
		t.Errorf("embed dim 1024: %v", err)
	}
}

func TestHybridAddedAndPaired(t *testing.T) {
	t.Parallel()
	r := HybridRound{Keyword: Latencies{N: 250, P50: 9, P99: 30}, Hybrid: Latencies{N: 260, P50: 10.5, P99: 33.25},
		Provider: Latencies{N: 300, P50: 0.4, P99: 1.25}}
	if p99, p50 := added(r); p99 != 2 || p50 != 1.1 {
		t.Errorf("added = %v at p99, %v at p50", p99, p50)
	}
	if p99, p50 := added(HybridRound{Hybrid: r.Hybrid}); p99 != 0 || p50 != 0 {
		t.Errorf("added without keyword answers = %v, %v", p99, p50)
	}
	// The median of the rounds: one round's burst does not decide; a round without answers
	// does not count.
	rounds := []HybridRound{{AddedP99: 2, AddedP50: 1}, {AddedP99: 40, AddedP50: 1.5}, {AddedP99: -3, AddedP50: 0.5},
		{AddedP99: 1, AddedP50: 0.8}, {}}
	for i := range 4 {
		rounds[i].Keyword.N, rounds[i].Hybrid.N = 1, 1
	}
	if p99, p50 := medianAdded(rounds); p99 != 1.5 || p50 != 0.9 {
		t.Errorf("median added = %v at p99, %v at p50", p99, p50)
	}
	ok := func(lang, text, source string, d time.Duration) answered {
		return answered{q: question{lang: lang, text: text}, sent: sent{status: http.StatusOK, source: source, latency: d}}
	}
	kw := []answered{ok("en", "a?", sourceAI, 10*time.Millisecond), ok("de", "a?", sourceAI, 20*time.Millisecond),
		ok("en", "b?", "fallback", 5*time.Millisecond), ok("en", "c?", sourceAI, 8*time.Millisecond)}
	hy := []answered{ok("en", "a?", sourceAI, 11*time.Millisecond), ok("de", "a?", sourceAI, 23*time.Millisecond),
		ok("en", "b?", sourceAI, 9*time.Millisecond), // answered by meaning only: not paired
		{q: question{lang: "en", text: "c?"}, sent: sent{status: http.StatusTooManyRequests}}}
	if n, med := paired(kw, hy); n != 2 || med != 2 {
		t.Errorf("paired = %d questions, median %v ms", n, med)
	}
}

func TestIndexStateAndProviderClock(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		st    indexState
		want  int
		ready bool
		kind  string
	}{
		{indexState{}, 100, false, "exact"},
		{indexState{exact: 100, builds: 1}, 100, false, "exact"}, // serving while the graph is built
		{indexState{exact: 60}, 100, false, "exact"},             // a load that failed part-way
		{indexState{hnsw: 100}, 100, true, "hnsw"},
		{indexState{exact: 100}, 100, true, "exact"}, // below the graph threshold
	} {
		if c.st.ready(c.want) != c.ready || c.st.kind() != c.kind {
			t.Errorf("%+v of %d: ready %v, kind %s", c.st, c.want, c.st.ready(c.want), c.st.kind())
		}
	}
	var pc providerClock
	pc.observe(embedtest.ProtocolOpenAI, 1, time.Millisecond) // before start: not kept
	pc.start()
	pc.observe(embedtest.ProtocolOpenAI, 1, 2*time.Millisecond)
	pc.observe(embedtest.ProtocolOpenAI, 64, time.Second) // a batch of chunks, not a question
	pc.observe(embedtest.ProtocolTEI, 1, time.Second)
	pc.observe(embedtest.ProtocolOpenAI, 1, 3*time.Millisecond)
	got := pc.stop()
	pc.observe(embedtest.ProtocolOpenAI, 1, time.Millisecond)
	if !slices.Equal(got, []time.Duration{2 * time.Millisecond, 3 * time.Millisecond}) {
		t.Errorf("provider times = %v", got)
	}
}

func TestHybridGoals(t *testing.T) {
	t.Parallel()
	h := func(size int, addedP99 float64, degraded int) Hybrid {
		return Hybrid{KBSize: size, Dim: 384, Vectors: size, Index: "hnsw", Keyword: Latency{AI: Latencies{N: 250, P99: 20}},
			Hybrid: Latency{AI: Latencies{N: 255, P99: 20 + addedP99 + 1}}, ProviderLatency: Latencies{N: 300, P99: 1},
			Rounds: []HybridRound{{AddedP99: addedP99, Keyword: Latencies{N: 250, P50: 9, P99: 21}}, {AddedP99: -1.25},
				{AddedP99: 12}},
			AddedP99: addedP99, AddedCPU: 0.8, Degraded: degraded}
	}
	r := Report{Hybrid: []Hybrid{h(10000, 9, 0), h(50000, 3.5, 0)},
		Latency: []Latency{{Shape: ShapeMixed, KBSize: 50000, AI: Latencies{N: 250, P50: 10, P99: 19.5}}}}
	rows := hybridGoals(r)
	if len(rows) != 3 {
		t.Fatalf("rows = %+v", rows)
	}
	if rows[0].Pass != nil || rows[0].Goal != "–" || !strings.Contains(rows[0].What, "10,000 chunks") {
		t.Errorf("10k row = %+v", rows[0])
	}
	if rows[1].Pass == nil || !*rows[1].Pass || rows[1].Goal != "<= 5 ms" ||
		!strings.Contains(rows[1].Measured, "+3.5 ms at p99, median of 3 rounds (+3.5, -1.2, +12.0;") ||
		!strings.Contains(rows[1].Measured, "all rounds: hybrid p99 24.5, keyword-only 20.0, provider 1.00 ms") ||
		!strings.Contains(rows[1].Measured, "+0.80 ms of server CPU") || !strings.Contains(rows[1].Measured, "hnsw index of 50,000 vectors of 384") {
		t.Errorf("50k row = %+v", rows[1])
	}
	if rows[2].Pass != nil || !strings.Contains(rows[2].Measured, "21.0 ms (p50 9.0); the plain KB (latency, the same questions): 19.5 ms") {
		t.Errorf("no-provider row = %+v", rows[2])
	}
	for _, bad := range []Hybrid{h(50000, 5.01, 0), h(50000, 1, 2)} {
		if rows := hybridGoals(Report{Hybrid: []Hybrid{bad}}); rows[0].Pass == nil || *rows[0].Pass {
			t.Errorf("%+v passed: %+v", bad, rows[0])
		}
	}
	if rows := hybridGoals(Report{}); len(rows) != 1 || rows[0].Measured != notMeasured || rows[0].Pass != nil {
		t.Errorf("not measured: %+v", rows)
	}
}
