package bench

import (
	"strings"
	"testing"
)

func TestGoalsAndMarkdown(t *testing.T) {
	t.Parallel()
	r := Report{
		Command: "svc bench --markdown",
		Started: "2026-01-02T03:04:05Z",
		Machine: Machine{CPU: "Test CPU", NumCPU: 2, GOMAXPROCS: 2},
		Through: &Through{KBSize: 1000, Conns: 32, HitShare: 0.033, GreetingShare: 0.25, HitCPUShare: 0.08,
			Questions: []string{"a?", "b?"}, Bare: Rate{PerSecond: 20000, CPUPerRequest: 24},
			CacheHit: Rate{PerSecond: 660, CPUPerRequest: 300}, Greeting: Rate{PerSecond: 5000}},
		Latency: []Latency{
			{Shape: ShapeMixed, KBSize: 1000, AI: Latencies{N: 300, P50: 5, P90: 8, P99: 9}},
			{Shape: ShapeMixed, KBSize: 10000, AI: Latencies{N: 300, P50: 9, P90: 15, P99: 18}},
			{Shape: ShapeMixed, KBSize: 50000, AI: Latencies{N: 290, P50: 32, P90: 60, P99: 72}},
			{Shape: ShapeLanguages, KBSize: 10000, Accounts: 3, AI: Latencies{N: 300, P50: 11, P90: 17, P99: 25}},
			{Shape: ShapeLanguages, KBSize: 50000, Accounts: 3, AI: Latencies{N: 300, P50: 12, P90: 20, P99: 30}},
		},
		Growth: []Growth{{Shape: ShapeMixed, From: 10000, To: 50000, P99Ratio: 4, P50Ratio: 3.56},
			{Shape: ShapeLanguages, From: 10000, To: 50000, P99Ratio: 1.2, P50Ratio: 1.1}},
		Writes: &Writes{KBSize: 1000, Conns: 32, Fresh: WritesPhase{PerSecond: 600},
			Full: WritesPhase{PerSecond: 550, CacheBefore: 851}, Flat: 0.92},
		Import: &Import{KBSize: 50000, Measured: false, Note: "not measured: KB reused"},
		Binary: &Binary{MB: 84, Symbols: true, DWARF: true},
	}
	r.Goals = goals(r)
	want := map[string]string{ // row prefix → mark
		"cache-hit `send` throughput": "FAIL",
		"greeting":                    "pass",
		"built-in answer (cache miss) latency, KB of 1,000":        "–",
		"built-in answer (cache miss) p99 (and p50), KB of 10,000": "pass",
		"the same at 50,000": "FAIL",
		"built-in answer (cache miss) p99 (and p50), 10,000 chunks in each language's account (3 accounts)": "FAIL",
		"the same, 50,000 chunks in each language's account":                                                "pass",
		"peak RSS of importing the 50k":                                                                     "–",
		"how latency grows with the KB: p99 at 50k over p99 at 10k |":                                       "FAIL",
		"how latency grows with the KB: p99 at 50k over p99 at 10k (an account per language)":               "pass",
		"distinct cache-miss answers":                                                                       "pass",
		"binary size":                                                                                       "FAIL",
		"RSS idle":                                                                                          "–",
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for prefix, mark := range want {
		found := false
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "| "+prefix) {
				found = true
				if !strings.HasSuffix(line, "| "+mark+" |") {
					t.Errorf("row %q should be marked %s:\n%s", prefix, mark, line)
				}
			}
		}
		if !found {
			t.Errorf("no row starting %q in\n%s", prefix, md)
		}
	}
	for _, s := range []string{"| what | measured | goal | |", "3.3% (660 vs 20000 req/s); by server CPU 8.0% (300 vs 24 µs a request)",
		"2 cached questions", "p99 72.0 ms (p50 32.0",
		"not measured: KB reused", "Command: `svc bench --markdown`", "Test CPU"} {
		if !strings.Contains(md, s) {
			t.Errorf("the markdown lacks %q:\n%s", s, md)
		}
	}
}

// Every goal of the issue has a row, measured or not (issue 25's hybrid retrieval too).
func TestGoalsOfAnEmptyReport(t *testing.T) {
	t.Parallel()
	rows := goals(Report{})
	if len(rows) != 10 {
		t.Errorf("%d rows, want 10: %+v", len(rows), rows)
	}
	for _, g := range rows {
		if g.Measured != notMeasured || g.Pass != nil {
			t.Errorf("row %+v of an empty report", g)
		}
	}
}

func TestThousandsAndLabels(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{1000: "1k", 50000: "50k", 1500: "1,500", 300: "300"} {
		if got := chunksLabel(n); got != want {
			t.Errorf("chunksLabel(%d) = %q, want %q", n, got, want)
		}
	}
	if got := cell("a | b\nc"); got != `a \| b c` {
		t.Errorf("cell = %q", got)
	}
}
