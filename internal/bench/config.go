package bench

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"svc/internal/embedding/embedtest"
)

// Scenarios, in the order they run.
const (
	ScenarioThroughput = "throughput"
	ScenarioLatency    = "latency"
	ScenarioHybrid     = "hybrid"
	ScenarioWrites     = "writes"
	ScenarioRSS        = "rss"
	ScenarioImport     = "import"
	ScenarioBinary     = "binary"
)

// Scenarios lists every scenario.
var Scenarios = []string{ScenarioThroughput, ScenarioLatency, ScenarioHybrid, ScenarioWrites, ScenarioRSS, ScenarioImport, ScenarioBinary}

// DefaultScenarios are those a run without Only measures: every scenario but hybrid, which
// embeds each KB and waits for its vector index to be built (minutes at 50,000 chunks) and
// so is asked for by name.
var DefaultScenarios = []string{ScenarioThroughput, ScenarioLatency, ScenarioWrites, ScenarioRSS, ScenarioImport, ScenarioBinary}

// Config is one run of the suite. The zero value of a field means its default (Defaults).
type Config struct {
	SVC string // the svc binary under test
	// Reference is the binary whose hidden `svc bench reference` serves the bare handler;
	// default: this process's own executable, so that --svc may name a build without it.
	Reference string
	XQuAD     string        // folder of xquad.{en,de,tr}.dev.json
	Sizes     []int         // KB sizes in chunks
	Duration  time.Duration // each throughput run
	Conns     int           // concurrent connections of the throughput and writes scenarios
	Runs      int           // throughput rounds (bare, cache hit, greeting), and hybrid rounds of Questions; medians are reported
	// HitQuestions is how many distinct cached questions the cache-hit runs send, spread over
	// the connections: one (the same cache key again and again), or several.
	HitQuestions int
	// Shapes are the KB shapes the latency scenario measures (ShapeMixed, ShapeLanguages);
	// the other scenarios run on the mixed KB.
	Shapes []string
	// Warmup and Questions are the cache-miss questions the latency scenario asks on each KB
	// before it measures, and those it measures.
	Warmup, Questions int
	// Writes is the number of distinct questions of each measured writes phase; CacheFill the
	// number of cache entries the account holds before the second one.
	Writes, CacheFill int
	// EmbedDim is the dimension of the vectors the hybrid scenario's fake embedding provider
	// answers (the fake's own 256, zero-padded to it): an index's cost follows the
	// dimension, so it stands for a model of that size.
	EmbedDim int
	// RSSRequests are the mixed requests before the idle memory is read, Idle the wait after them.
	RSSRequests int
	Idle        time.Duration
	Work        string   // folder of the KB directories; "" = a temporary folder removed at the end
	Only        []string // scenarios to run; none = all
	Progress    io.Writer
	Command     string // the command line, for the report
}

// Defaults are the figures of issue 14's measurement.
var Defaults = Config{
	XQuAD:        "../shared/eval/xquad-dev",
	Sizes:        []int{1000, 10000, 50000},
	Duration:     10 * time.Second,
	Conns:        32,
	Runs:         3,
	HitQuestions: 1,
	Shapes:       Shapes,
	Warmup:       20,
	Questions:    300,
	Writes:       500,
	CacheFill:    850,
	EmbedDim:     384,
	RSSRequests:  1000,
	Idle:         3 * time.Second,
}

// withDefaults fills the unset fields from Defaults. A negative Idle means no wait at all.
func (c Config) withDefaults() Config {
	d := Defaults
	if c.XQuAD == "" {
		c.XQuAD = d.XQuAD
	}
	if len(c.Sizes) == 0 {
		c.Sizes = d.Sizes
	}
	if len(c.Shapes) == 0 {
		c.Shapes = d.Shapes
	}
	setDur := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	setDur(&c.Duration, d.Duration)
	setDur(&c.Idle, d.Idle)
	if c.Idle < 0 {
		c.Idle = 0
	}
	for _, f := range []struct {
		v   *int
		def int
	}{{&c.Conns, d.Conns}, {&c.Runs, d.Runs}, {&c.HitQuestions, d.HitQuestions}, {&c.Warmup, d.Warmup},
		{&c.Questions, d.Questions}, {&c.Writes, d.Writes}, {&c.CacheFill, d.CacheFill}, {&c.RSSRequests, d.RSSRequests},
		{&c.EmbedDim, d.EmbedDim}} {
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	c.Sizes = slices.Clone(c.Sizes)
	slices.Sort(c.Sizes)
	c.Sizes = slices.Compact(c.Sizes)
	// The shapes in Shapes' order, each once.
	c.Shapes = slices.DeleteFunc(slices.Clone(Shapes), func(s string) bool { return !slices.Contains(c.Shapes, s) })
	return c
}

// Validate reports a setting the suite cannot run with.
func (c Config) Validate() error {
	for _, s := range c.Shapes { // before withDefaults, which keeps the known ones
		if !slices.Contains(Shapes, s) {
			return fmt.Errorf("unknown KB shape %q; the shapes are %s", s, strings.Join(Shapes, ", "))
		}
	}
	c = c.withDefaults()
	if c.SVC == "" {
		return fmt.Errorf("the svc binary to measure is not set")
	}
	for _, n := range c.Sizes {
		if n < 1 || n > maxKBSize {
			return fmt.Errorf("a KB size must be 1 to %d chunks, not %d", maxKBSize, n)
		}
	}
	if c.Duration < 100*time.Millisecond {
		return fmt.Errorf("the duration must be at least 100ms, not %s", c.Duration)
	}
	if c.Conns < 1 || c.Conns > 1024 {
		return fmt.Errorf("conns must be 1 to 1024, not %d", c.Conns)
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"runs", c.Runs}, {"hit-questions", c.HitQuestions}, {"questions", c.Questions}, {"writes", c.Writes}, {"cache-fill", c.CacheFill},
		{"rss-requests", c.RSSRequests}, {"warmup", c.Warmup}} {
		if v.n < 1 {
			return fmt.Errorf("%s must be at least 1, not %d", v.name, v.n)
		}
	}
	if c.EmbedDim < minEmbedDim || c.EmbedDim > maxEmbedDim {
		return fmt.Errorf("embed-dim must be %d to %d, not %d", minEmbedDim, maxEmbedDim, c.EmbedDim)
	}
	if c.HitQuestions > maxHitQuestions {
		return fmt.Errorf("hit-questions must be at most %d, not %d", maxHitQuestions, c.HitQuestions)
	}
	for _, s := range c.Only {
		if !slices.Contains(Scenarios, s) {
			return fmt.Errorf("unknown scenario %q; the scenarios are %s", s, strings.Join(Scenarios, ", "))
		}
	}
	return nil
}

// maxHitQuestions bounds HitQuestions: the cache-hit questions are found among the first
// questions of the pool that the KB answers.
const maxHitQuestions = 64

// The hybrid scenario's vector dimensions: at least the fake provider's own (a shorter vector
// would cut its concepts off), at most a large model's (OpenAI's text-embedding-3-large
// answers 3,072).
const (
	minEmbedDim = embedtest.Dim
	maxEmbedDim = 4096
)

// maxKBSize keeps a KB inside one import file (internal/kb takes up to 100,000 records).
const maxKBSize = 90_000

// ParseSizes reads a comma-separated list of sizes, such as "1000,10000,50000" or "1k,10k,50k".
func ParseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		if f == "" {
			continue
		}
		mult := 1
		if strings.HasSuffix(f, "k") {
			f, mult = strings.TrimSuffix(f, "k"), 1000
		}
		n, err := strconv.Atoi(strings.ReplaceAll(f, "_", ""))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, n*mult)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes in %q", s)
	}
	return out, nil
}

func (c Config) runs(scenario string) bool {
	if len(c.Only) == 0 {
		return slices.Contains(DefaultScenarios, scenario)
	}
	return slices.Contains(c.Only, scenario)
}

// smallSize is the KB of the throughput and writes scenarios: the smallest (1,000 chunks by
// default), so that they measure the request path and the writes rather than retrieval.
func (c Config) smallSize() int { return c.Sizes[0] }

// rssSize is the KB of the memory scenario: 10,000 chunks when measured, else the largest.
func (c Config) rssSize() int {
	if slices.Contains(c.Sizes, 10000) {
		return 10000
	}
	return c.Sizes[len(c.Sizes)-1]
}

// importSize is the KB whose import memory is reported: the largest.
func (c Config) importSize() int { return c.Sizes[len(c.Sizes)-1] }

// growthSizes are the two KBs whose p99 latencies are compared: 10,000 and 50,000 chunks when
// both are measured, else the two largest; ok is false with fewer than two sizes.
func (c Config) growthSizes() (from, to int, ok bool) {
	if slices.Contains(c.Sizes, 10000) && slices.Contains(c.Sizes, 50000) {
		return 10000, 50000, true
	}
	if n := len(c.Sizes); n >= 2 {
		return c.Sizes[n-2], c.Sizes[n-1], true
	}
	return 0, 0, false
}

// neededKBs are the KBs the selected scenarios run on: mixed ones, for the latency
// scenario every size in every shape, and for the hybrid scenario every size, mixed.
func (c Config) neededKBs() []kbKey {
	var out []kbKey
	add := func(shape string, size int) {
		if k := (kbKey{shape, size}); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if c.runs(ScenarioThroughput) || c.runs(ScenarioWrites) {
		add(ShapeMixed, c.smallSize())
	}
	if c.runs(ScenarioLatency) {
		for _, shape := range c.Shapes {
			for _, n := range c.Sizes {
				add(shape, n)
			}
		}
	}
	if c.runs(ScenarioHybrid) {
		for _, n := range c.Sizes {
			add(ShapeMixed, n)
		}
	}
	if c.runs(ScenarioRSS) {
		add(ShapeMixed, c.rssSize())
	}
	if c.runs(ScenarioImport) {
		add(ShapeMixed, c.importSize())
	}
	slices.SortFunc(out, func(a, b kbKey) int {
		if a.shape != b.shape {
			return slices.Index(Shapes, a.shape) - slices.Index(Shapes, b.shape)
		}
		return a.size - b.size
	})
	return out
}
