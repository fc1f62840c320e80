package bench

import (
	"slices"
	"testing"
	"time"
)

func TestParseSizes(t *testing.T) {
	t.Parallel()
	got, err := ParseSizes("1k, 10000,50K,")
	if err != nil || !slices.Equal(got, []int{1000, 10000, 50000}) {
		t.Errorf("ParseSizes = %v, %v", got, err)
	}
	for _, bad := range []string{"", "x", "-5", "1k,0"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("ParseSizes(%q) accepted", bad)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	ok := Config{SVC: "/bin/svc"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for name, c := range map[string]Config{
		"no binary":      {},
		"size 0":         {SVC: "x", Sizes: []int{0}},
		"huge size":      {SVC: "x", Sizes: []int{maxKBSize + 1}},
		"short duration": {SVC: "x", Duration: time.Millisecond},
		"conns":          {SVC: "x", Conns: -1},
		"runs":           {SVC: "x", Runs: -2},
		"scenario":       {SVC: "x", Only: []string{"speed"}},
		"shape":          {SVC: "x", Shapes: []string{"tiny"}},
		"hit questions":  {SVC: "x", HitQuestions: maxHitQuestions + 1},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSizesOfScenarios(t *testing.T) {
	t.Parallel()
	c := Config{SVC: "x", Sizes: []int{50000, 1000, 10000, 1000}}.withDefaults()
	if !slices.Equal(c.Sizes, []int{1000, 10000, 50000}) {
		t.Errorf("sizes = %v", c.Sizes)
	}
	if c.smallSize() != 1000 || c.rssSize() != 10000 || c.importSize() != 50000 {
		t.Errorf("small %d, rss %d, import %d", c.smallSize(), c.rssSize(), c.importSize())
	}
	if from, to, ok := c.growthSizes(); !ok || from != 10000 || to != 50000 {
		t.Errorf("growth %d→%d %v", from, to, ok)
	}
	c.Only = []string{ScenarioThroughput, ScenarioRSS}
	if got := c.neededKBs(); !slices.Equal(got, []kbKey{{ShapeMixed, 1000}, {ShapeMixed, 10000}}) {
		t.Errorf("needed for throughput,rss = %v", got)
	}
	c.Only = []string{ScenarioBinary}
	if got := c.neededKBs(); len(got) != 0 {
		t.Errorf("needed for binary = %v", got)
	}
	// The latency scenario measures every size in every shape; the others the mixed KBs.
	c.Only = []string{ScenarioLatency, ScenarioImport}
	if got := c.neededKBs(); !slices.Equal(got, []kbKey{{ShapeMixed, 1000}, {ShapeMixed, 10000}, {ShapeMixed, 50000},
		{ShapeLanguages, 1000}, {ShapeLanguages, 10000}, {ShapeLanguages, 50000}}) {
		t.Errorf("needed for latency,import = %v", got)
	}
	c.Shapes = []string{ShapeLanguages}
	if got := c.neededKBs(); !slices.Equal(got, []kbKey{{ShapeMixed, 50000}, {ShapeLanguages, 1000}, {ShapeLanguages, 10000},
		{ShapeLanguages, 50000}}) {
		t.Errorf("needed for latency,import on the languages shape = %v", got)
	}
	small := Config{SVC: "x", Sizes: []int{300, 600}}.withDefaults()
	if small.rssSize() != 600 {
		t.Errorf("rss size without 10k = %d, want the largest", small.rssSize())
	}
	if from, to, _ := small.growthSizes(); from != 300 || to != 600 {
		t.Errorf("growth without 10k/50k = %d→%d", from, to)
	}
	// Shapes come in Shapes' order, each once, both by default.
	if got := (Config{SVC: "x"}).withDefaults().Shapes; !slices.Equal(got, Shapes) {
		t.Errorf("default shapes = %v", got)
	}
	if got := (Config{SVC: "x", Shapes: []string{ShapeLanguages, ShapeMixed, ShapeLanguages}}).withDefaults().Shapes; !slices.Equal(got, Shapes) {
		t.Errorf("shapes = %v", got)
	}
}
