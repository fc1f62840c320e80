package testsets_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/bench"
	"svc/internal/engine"
	"svc/internal/eval"
	"svc/internal/eval/sitetest"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/testsets"
)

// BenchmarkRun500On10kKB runs a set of 500 tests through the built-in engine on an account
// whose KB holds 10,000 chunks in English (svc bench's KB of the languages shape: XQuAD's
// English pages and synthesized pages, bench.KBSource), and reports the time of a run, per
// test, and the memory the run needs: the process's peak RSS over the run (reset before it
// through /proc/self/clear_refs) and the Go heap's peak of objects, sampled every 5 ms.
//
//	go test -run '^$' -bench Run500On10kKB -benchtime 3x ./internal/testsets/
//
// The tests are XQuAD's English questions, answerable without expectations (they pass when
// the engine answers confidently): the figures are about speed, not quality.
func BenchmarkRun500On10kKB(b *testing.B) {
	dir := sitetest.SharedDir(b, "xquad-dev", "SVC_XQUAD_DIR", "xquad.en.dev.json")
	src, err := bench.NewKBSource(dir)
	if err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx(), b.TempDir(), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	a := store.Account{Name: "bench", Plan: store.PlanStarter, Lang: "en", SalesMode: true, TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, InputRate: 3_000_000, OutputRate: 25_000_000}
	if err := st.CreateAccount(ctx(), &a, &store.APIKey{Prefix: "svc_pk_bench000", Hash: []byte("bench")}); err != nil {
		b.Fatal(err)
	}
	importKB := func(write func(w *bytes.Buffer) error) {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			b.Fatal(err)
		}
		if _, err := kb.Import(ctx(), st, a.ID, 0, &buf); err != nil {
			b.Fatal(err)
		}
	}
	importKB(func(w *bytes.Buffer) error { _, err := src.WriteOriginals(w, "en"); return err })
	const size = 10_000
	chunks := func() int {
		s, err := st.KBState(ctx(), a.ID)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, c := range s.Chunks {
			n += c
		}
		return n
	}
	for next := 0; chunks() < size*98/100; {
		n := size - chunks()
		importKB(func(w *bytes.Buffer) error { return src.WriteSynthesized(w, "en", next, n) })
		next += n
	}
	_, qs, err := eval.LoadXQuAD(dir, "en")
	if err != nil {
		b.Fatal(err)
	}
	var file strings.Builder
	seen := map[string]bool{}
	for _, q := range qs {
		k := testsets.Key(q.Text)
		if seen[k] || k == "" {
			continue
		}
		seen[k] = true
		line, _ := json.Marshal(map[string]any{"q": q.Text, "lang": "en", "answerable": true})
		file.Write(append(line, '\n'))
		if len(seen) == 500 {
			break
		}
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	svc := testsets.New(testsets.Deps{Store: st, Answerer: eng})
	if res, err := svc.Import(ctx(), a.ID, strings.NewReader(file.String())); err != nil || res.Total != 500 {
		b.Fatalf("import tests: %+v %v", res, err)
	}
	b.Logf("KB: %d chunks; 500 tests", chunks())
	runtime.GC()
	resetPeakRSS(b)
	stop := sampleHeap()
	b.ResetTimer()
	var rep testsets.Report
	for range b.N {
		if rep, err = svc.RunNow(ctx(), a.ID, store.TestTriggerCLI); err != nil || rep.Status != store.TestRunDone {
			b.Fatalf("run: %v %s", err, rep.Error)
		}
	}
	b.StopTimer()
	peakHeap := stop()
	perRun := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(perRun.Milliseconds())/500, "ms/test")
	b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
	b.Logf("last run: %d of %d passed", rep.Passed, rep.Total)
}

// resetPeakRSS resets the process's peak RSS (VmHWM) to its current RSS (Linux 4.0+).
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("peak RSS not reset (%v): it includes building the KB", err)
	}
}

// peakRSS reads VmHWM, in bytes.
func peakRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Logf("no /proc/self/status: %v", err)
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// sampleHeap samples the Go heap's objects every 5 ms until the returned stop, which reports
// the most it saw.
func sampleHeap() (stop func() uint64) {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		// runtime/metrics reads without stopping the world, as ReadMemStats would every 5 ms.
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
