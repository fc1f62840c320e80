package bench

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"time"
)

// greeting is a small-talk message: answered from the shared canned replies (cache_shared).
const greeting = "hello"

// A key's send rate is a token bucket of the account's --send-rate-per-min that starts full
// and refills at that rate, held in the server's memory. The bench's accounts have a million
// a minute, which no run reaches; a build from before that limit takes at most 10,000, which a
// fast cache path spends in seconds. So every service run gets a fresh server (a full bucket)
// and stops at runBudget requests if its duration has not ended first: warm-up, checks and
// run stay inside one burst, and a rate is never the limiter's.
const warmBudget = 1000

func runBudget(sendRate int) int64 { return int64(sendRate - warmBudget - 100) }

// throughput compares cache-hit sends and greetings with the bare reference, round by round:
// bare, cache hit, greeting, each for the configured duration (a service run may end sooner
// at runBudget requests) with conns connections. Cache hits use the KB's account and
// HitQuestions questions in its answer cache, spread over the connections; greetings use a
// second account of the same data directory, so that each has a key of its own.
//
// Each run also reads the server's CPU time: a load generator costs CPU on the same cores, so
// a rate share depends on the generator (wrk's bare rate is about twice this Go client's, and
// its shares read lower), while the CPU a request costs the server does not.
func (s *suite) throughput(ctx context.Context, k kbDir) (Through, error) {
	cfg := s.cfg
	t := Through{KBSize: k.meta.Size, Conns: cfg.Conns, Duration: cfg.Duration.String(), Rounds: cfg.Runs, Accounts: 2}
	dir, cleanup, err := s.scratch("throughput", k)
	if err != nil {
		return t, err
	}
	defer cleanup()
	greeter, err := s.createAccount(ctx, filepath.Join(dir, "data"), "bench-greeting")
	if err != nil {
		return t, err
	}
	rate := k.meta.SendRate
	if rate == 0 {
		rate = 10_000 // a KB built before the bench recorded it
	}
	t.SendRate = min(rate, greeter.SendRate)
	client := newClient(cfg.Conns)
	defer client.CloseIdleConnections()
	qs, err := s.cachedQuestions(ctx, client, dir, k.meta.APIKey, cfg.HitQuestions)
	if err != nil {
		return t, err
	}
	t.Question = qs[0].text
	for _, q := range qs {
		t.Questions = append(t.Questions, q.text)
	}
	ref, err := s.ref.start(ctx, filepath.Join(dir, "reference.log"), "bench", "reference", "--addr", "127.0.0.1:0")
	if err != nil {
		return t, err
	}
	defer ref.stop()
	var bare, hits []sendReq
	for _, q := range qs {
		bare = append(bare, newSendReq(ref.base, k.meta.APIKey, q.text))
		hits = append(hits, newSendReq("", k.meta.APIKey, q.text))
	}
	greet := []sendReq{newSendReq("", greeter.APIKey, greeting)}
	hammer(ctx, client, min(time.Second, cfg.Duration/5), cfg.Conns, bare, 0) // warm-up

	var hitShares, greetShares, hitCPUShares, greetCPUShares []float64
	lat := make([][]time.Duration, 3)
	for round := 1; round <= cfg.Runs; round++ {
		runs := make([]loadRun, 3)
		runs[0] = measureCPU(ref.pid(), func() loadRun { return hammer(ctx, client, cfg.Duration, cfg.Conns, bare, 0) })
		if runs[1], err = s.serviceRun(ctx, client, dir, hits, sourceCacheTenant, runBudget(rate)); err != nil {
			return t, fmt.Errorf("cache hit, round %d: %w", round, err)
		}
		if runs[2], err = s.serviceRun(ctx, client, dir, greet, sourceCacheShared, runBudget(greeter.SendRate)); err != nil {
			return t, fmt.Errorf("greeting, round %d: %w", round, err)
		}
		if ctx.Err() != nil {
			return t, ctx.Err()
		}
		for i, r := range []*Rate{&t.Bare, &t.CacheHit, &t.Greeting} {
			r.Rounds = append(r.Rounds, round2(runs[i].perSecond()))
			r.RoundSeconds = append(r.RoundSeconds, round2(runs[i].elapsed.Seconds()))
			r.CPURounds = append(r.CPURounds, round2(runs[i].cpuPerRequest()))
			lat[i] = append(lat[i], runs[i].latencies...)
			t.RateLimited += runs[i].limited
			t.Failed += runs[i].failed
			if runs[i].failed > 0 || runs[i].limited > 0 {
				s.warnf("throughput round %d: %d of %d requests failed, %d rate limited (first failure: %s)", round,
					runs[i].failed, runs[i].ok+runs[i].failed+runs[i].limited, runs[i].limited, runs[i].firstFailure)
			}
		}
		b, h, g := runs[0].perSecond(), runs[1].perSecond(), runs[2].perSecond()
		if b <= 0 {
			return t, fmt.Errorf("round %d: the bare handler answered nothing (%s)", round, runs[0].firstFailure)
		}
		hitShares, greetShares = append(hitShares, h/b), append(greetShares, g/b)
		bc, hc, gc := runs[0].cpuPerRequest(), runs[1].cpuPerRequest(), runs[2].cpuPerRequest()
		if bc > 0 && hc > 0 && gc > 0 {
			hitCPUShares, greetCPUShares = append(hitCPUShares, bc/hc), append(greetCPUShares, bc/gc)
		}
		s.logf("throughput round %d/%d: bare %.0f req/s (%.0f µs of CPU each), cache hit %.0f (%.1f%%, %.1f s, %.0f µs), "+
			"greeting %.0f (%.1f%%, %.1f s, %.0f µs)", round, cfg.Runs, b, bc, h, 100*h/b, runs[1].elapsed.Seconds(), hc,
			g, 100*g/b, runs[2].elapsed.Seconds(), gc)
	}
	for i, r := range []*Rate{&t.Bare, &t.CacheHit, &t.Greeting} {
		r.PerSecond = round2(median(r.Rounds))
		r.CPUPerRequest = round2(median(r.CPURounds))
		r.Latency = summarize(lat[i])
	}
	t.HitShare, t.GreetingShare = round4(median(hitShares)), round4(median(greetShares))
	if len(hitCPUShares) > 0 {
		t.HitCPUShare, t.GreetingCPUShare = round4(median(hitCPUShares)), round4(median(greetCPUShares))
	}
	return t, nil
}

// measureCPU runs run and notes the CPU time the process pid used meanwhile (none when it
// cannot be read: on a platform without /proc).
func measureCPU(pid int, run func() loadRun) loadRun {
	before, ok := cpuTime(pid)
	r := run()
	if after, ok2 := cpuTime(pid); ok && ok2 {
		r.cpu = after - before
	}
	return r
}

// serviceRun starts a fresh server on dir, checks that every request of reqs (made with an
// empty base) is answered with source want, warms up, and sends them, spread over the
// connections, for the configured duration or budget requests, whichever ends first.
func (s *suite) serviceRun(ctx context.Context, c *http.Client, dir string, reqs []sendReq, want string, budget int64) (loadRun, error) {
	srv, err := s.serve(ctx, dir)
	if err != nil {
		return loadRun{}, err
	}
	defer srv.stop()
	defer c.CloseIdleConnections() // the next run's server has another port
	on := make([]sendReq, len(reqs))
	for i, r := range reqs {
		on[i] = r
		on[i].url = srv.base + r.url
	}
	check := func(when string) error {
		for _, r := range on {
			if res := r.do(ctx, c, true); res.source != want {
				return fmt.Errorf("%s%q was answered %s, want source %s", when, r.message(), outcome(res), want)
			}
		}
		return nil
	}
	if err := check(""); err != nil {
		return loadRun{}, err
	}
	hammer(ctx, c, min(time.Second, s.cfg.Duration/5), s.cfg.Conns, on, warmBudget)
	run := measureCPU(srv.pid(), func() loadRun { return hammer(ctx, c, s.cfg.Duration, s.cfg.Conns, on, budget) })
	return run, check("after the run ")
}

// cachedQuestions finds the first n questions of the pool the KB answers (source ai) and
// checks that asking each again is a cache hit, on a server of its own.
func (s *suite) cachedQuestions(ctx context.Context, c *http.Client, dir, key string, n int) ([]question, error) {
	srv, err := s.serve(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer srv.stop()
	defer c.CloseIdleConnections()
	var out []question
	for _, q := range s.pool[:min(len(s.pool), 30*n)] {
		first := newSendReq(srv.base, key, q.text).do(ctx, c, true)
		if first.err != nil || first.status != http.StatusOK {
			return nil, fmt.Errorf("asking %q: %s", q.text, outcome(first))
		}
		if first.source != sourceAI {
			continue
		}
		if again := newSendReq(srv.base, key, q.text).do(ctx, c, true); again.source != sourceCacheTenant {
			return nil, fmt.Errorf("%q asked again was answered %s, want %s", q.text, outcome(again), sourceCacheTenant)
		}
		if out = append(out, q); len(out) == n {
			return out, nil
		}
	}
	return nil, fmt.Errorf("%d of the first %d questions got a built-in answer, want %d", len(out), min(len(s.pool), 30*n), n)
}

// outcome describes a reply for an error message.
func outcome(s sent) string {
	if s.err != nil || s.status != http.StatusOK {
		return describe(s)
	}
	return "with source " + s.source
}

func round4(x float64) float64 { return round2(x*100) / 100 }
