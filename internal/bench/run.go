package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// suite is one run's shared state.
type suite struct {
	cfg      Config
	bin      svcBin // the binary under test
	ref      svcBin // the binary serving the reference handler
	work     string
	corpus   corpus
	gen      *generator
	pool     []question // every XQuAD question once, in asking order
	version  string     // the binary's version label
	warnings []string
	started  time.Time
}

func (s *suite) logf(format string, args ...any) {
	fmt.Fprintf(s.cfg.Progress, "bench %4.0fs: %s\n", time.Since(s.started).Seconds(), fmt.Sprintf(format, args...))
}

func (s *suite) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.warnings = append(s.warnings, msg)
	s.logf("warning: %s", msg)
}

// Run runs the selected scenarios and returns their figures. A scenario that fails is named
// in the report's errors and in the returned error; the others still run. When nothing can
// be measured (the binary does not run, a KB cannot be built) the report is the zero Report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	cfg = cfg.withDefaults()
	if cfg.Reference == "" {
		self, err := os.Executable()
		if err != nil {
			return Report{}, fmt.Errorf("find this binary for the reference server: %w", err)
		}
		cfg.Reference = self
	}
	s := &suite{cfg: cfg, bin: newSvcBin(cfg.SVC), ref: newSvcBin(cfg.Reference), started: time.Now()}
	r := Report{Command: cfg.Command, Started: s.started.UTC().Format(time.RFC3339), Settings: settingsOf(cfg)}
	raw, label, err := s.bin.version(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("the binary to measure: %w", err)
	}
	s.version = label
	r.Machine = machine(raw)
	s.logf("measuring %s (%s) on %s, %d CPUs", label, cfg.SVC, r.Machine.CPU, r.Machine.NumCPU)

	var failed []error
	fail := func(scenario string, err error) {
		s.logf("%s failed: %v", scenario, err)
		r.Errors = append(r.Errors, scenario+": "+err.Error())
		failed = append(failed, fmt.Errorf("%s: %w", scenario, err))
	}
	if cfg.runs(ScenarioBinary) {
		if b, err := binaryInfo(cfg.SVC); err != nil {
			fail(ScenarioBinary, err)
		} else {
			r.Binary = &b
		}
	}
	if needed := cfg.neededKBs(); len(needed) > 0 {
		cleanup, err := s.setUpWork()
		if err != nil {
			return Report{}, err
		}
		defer cleanup()
		if err := s.runOnKBs(ctx, &r, needed, fail); err != nil {
			return Report{}, err
		}
	}
	r.Warnings = s.warnings
	r.Seconds = round2(time.Since(s.started).Seconds())
	r.Goals = goals(r)
	return r, errors.Join(failed...)
}

// setUpWork makes the work folder: --work, or a temporary one removed by cleanup.
func (s *suite) setUpWork() (cleanup func(), err error) {
	if s.cfg.Work != "" {
		s.work = s.cfg.Work
		return func() {}, os.MkdirAll(s.work, 0o755)
	}
	if s.work, err = os.MkdirTemp("", "svc-bench-"); err != nil {
		return nil, err
	}
	return func() { os.RemoveAll(s.work) }, nil
}

// runOnKBs builds (or reuses) the KBs and runs the scenarios that need one. Only a KB that
// cannot be built stops the run.
func (s *suite) runOnKBs(ctx context.Context, r *Report, needed []kbKey, fail func(string, error)) error {
	var err error
	if s.corpus, err = loadCorpus(s.cfg.XQuAD); err != nil {
		return err
	}
	if s.gen, err = newGenerator(s.corpus); err != nil {
		return err
	}
	s.pool = s.corpus.questionPool()
	kbs := map[kbKey]kbDir{}
	for _, n := range needed {
		k, err := s.ensureKB(ctx, n.shape, n.size)
		if err != nil {
			return err
		}
		kbs[n] = k
		r.KBs = append(r.KBs, KBInfo{Shape: n.shape, Size: n.size, Accounts: max(1, len(k.meta.Accounts)), Chunks: k.meta.Chunks,
			Pages: k.meta.Pages, Synthesized: k.meta.Synthesized, Reused: k.reused, BuiltBy: k.meta.BuiltBy,
			ImportSeconds: k.meta.ImportSeconds, ImportPeakMB: mb(k.meta.ImportPeakRSS)})
	}
	cfg := s.cfg
	mixed := func(size int) kbDir { return kbs[kbKey{ShapeMixed, size}] }
	if cfg.runs(ScenarioThroughput) {
		if t, err := s.throughput(ctx, mixed(cfg.smallSize())); err != nil {
			fail(ScenarioThroughput, err)
		} else {
			r.Through = &t
		}
	}
	if cfg.runs(ScenarioLatency) {
		for _, shape := range cfg.Shapes {
			for _, n := range cfg.Sizes {
				k := kbs[kbKey{shape, n}]
				if l, err := s.latency(ctx, k); err != nil {
					fail(fmt.Sprintf("%s %s", ScenarioLatency, k.label()), err)
				} else {
					r.Latency = append(r.Latency, l)
				}
			}
			if g := growth(cfg, shape, r.Latency); g != nil {
				r.Growth = append(r.Growth, *g)
			}
		}
	}
	if cfg.runs(ScenarioHybrid) {
		for _, n := range cfg.Sizes {
			k := mixed(n)
			if h, err := s.hybrid(ctx, k); err != nil {
				fail(fmt.Sprintf("%s %s", ScenarioHybrid, k.label()), err)
			} else {
				r.Hybrid = append(r.Hybrid, h)
			}
		}
	}
	if cfg.runs(ScenarioWrites) {
		if w, err := s.writes(ctx, mixed(cfg.smallSize())); err != nil {
			fail(ScenarioWrites, err)
		} else {
			r.Writes = &w
		}
	}
	if cfg.runs(ScenarioRSS) {
		if m, err := s.rss(ctx, mixed(cfg.rssSize())); err != nil {
			fail(ScenarioRSS, err)
		} else {
			r.RSS = &m
		}
	}
	if cfg.runs(ScenarioImport) {
		r.Import = importOf(mixed(cfg.importSize()))
	}
	return nil
}

// growth compares the p99 latency of the sizes growthSizes names on KBs of shape.
func growth(cfg Config, shape string, ls []Latency) *Growth {
	from, to, ok := cfg.growthSizes()
	if !ok {
		return nil
	}
	var a, b *Latency
	for i := range ls {
		switch {
		case ls[i].Shape != shape:
		case ls[i].KBSize == from:
			a = &ls[i]
		case ls[i].KBSize == to:
			b = &ls[i]
		}
	}
	if a == nil || b == nil || a.AI.P99 == 0 || a.AI.P50 == 0 {
		return nil
	}
	return &Growth{Shape: shape, From: from, To: to, P99Ratio: round2(b.AI.P99 / a.AI.P99), P50Ratio: round2(b.AI.P50 / a.AI.P50)}
}

// importOf reports the import memory of a KB: measured only when this run built it.
func importOf(k kbDir) *Import {
	im := &Import{KBSize: k.meta.Size, Chunks: k.meta.Chunks, Measured: !k.reused}
	if k.reused {
		im.Note = fmt.Sprintf("not measured: KB reused (built %s by %s: %.0f MB, %.0f s)", k.meta.BuiltAt, k.meta.BuiltBy,
			mb(k.meta.ImportPeakRSS), k.meta.ImportSeconds)
		return im
	}
	im.PeakRSSMB, im.Seconds = mb(k.meta.ImportPeakRSS), k.meta.ImportSeconds
	return im
}

// scratch copies a KB into a fresh folder for one scenario; cleanup removes it.
func (s *suite) scratch(name string, k kbDir) (dir string, cleanup func(), err error) {
	dir = filepath.Join(s.work, "run-"+strings.ReplaceAll(name, " ", "-"))
	if err := os.RemoveAll(dir); err != nil {
		return "", nil, err
	}
	if err := copyData(k.dataDir(), filepath.Join(dir, "data")); err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("copy the KB: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// serve starts `svc serve` on a scratch folder, on a free loopback port.
func (s *suite) serve(ctx context.Context, dir string) (*server, error) {
	return s.serveWith(ctx, s.bin, dir)
}

// serveWith is serve with the binary (and environment) of bin.
func (s *suite) serveWith(ctx context.Context, bin svcBin, dir string) (*server, error) {
	return bin.start(ctx, filepath.Join(dir, "serve.log"), "serve", "--data", filepath.Join(dir, "data"),
		"--addr", "127.0.0.1:0")
}

func settingsOf(c Config) Settings {
	sc := c.Only
	if len(sc) == 0 {
		sc = DefaultScenarios
	}
	return Settings{SVC: c.SVC, Reference: c.Reference, XQuAD: c.XQuAD, Sizes: c.Sizes, Shapes: c.Shapes, Duration: c.Duration.String(),
		Conns: c.Conns, Runs: c.Runs, HitQuestions: c.HitQuestions,
		Warmup: c.Warmup, Questions: c.Questions, Writes: c.Writes, CacheFill: c.CacheFill, EmbedDim: c.EmbedDim, RSSRequests: c.RSSRequests,
		Idle: c.Idle.String(), Work: c.Work, Scenarios: sc}
}
