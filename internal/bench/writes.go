package bench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
)

// writes measures how many distinct cache-miss answers the service composes and stores a
// second with conns clients, on a fresh copy of the KB (an empty answer cache), and again
// once the account's cache holds CacheFill entries. Each built-in (ai) answer stores one
// cache entry, so the entries are counted as the ai answers so far. Phases:
//
//   - fresh: Writes new questions on the empty cache;
//   - fill: more new questions until the cache holds CacheFill entries (its rate is reported
//     too, but it is the way to the last phase rather than a figure of its own);
//   - full: Writes new questions on the full cache.
//
// Only ai answers count towards a rate; a question answered from the cache as similar to an
// earlier one, or with the "no answer" fallback, is asked but not counted.
func (s *suite) writes(ctx context.Context, k kbDir) (Writes, error) {
	cfg := s.cfg
	w := Writes{KBSize: k.meta.Size, Conns: cfg.Conns}
	dir, cleanup, err := s.scratch("writes", k)
	if err != nil {
		return w, err
	}
	defer cleanup()
	srv, err := s.serve(ctx, dir)
	if err != nil {
		return w, err
	}
	defer srv.stop()
	client := newClient(cfg.Conns)
	defer client.CloseIdleConnections()

	feed := &questionFeed{pool: s.pool}
	entries := 0
	phase := func(name string, next func(int) (question, bool)) WritesPhase {
		p := WritesPhase{CacheBefore: entries}
		cpu0, cpuOK := cpuTime(srv.pid())
		as, elapsed := askAll(ctx, client, cfg.Conns, srv.base, k.keyFor, next)
		cpu1, cpuOK1 := cpuTime(srv.pid())
		p.Asked, p.Sources, p.Seconds = len(as), tally(as), round2(elapsed.Seconds())
		ai := p.Sources[sourceAI]
		p.AI = summarize(aiLatencies(as))
		if elapsed > 0 {
			p.PerSecond = round2(float64(ai) / elapsed.Seconds())
		}
		if cpuOK && cpuOK1 && ai > 0 {
			p.CPUPerAnswer = round2(float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(ai))
		}
		entries += ai
		s.logf("writes %s: %d questions in %.1f s, %.0f new answers a second (%.2f ms of server CPU each), %d cache entries now %v",
			name, p.Asked, p.Seconds, p.PerSecond, p.CPUPerAnswer, entries, p.Sources)
		if bad := p.Sources["error"] + p.Sources["rate_limited"]; bad > 0 {
			s.warnf("writes %s: %d requests failed (first: %s)", name, bad, firstFailure(as))
		}
		return p
	}
	w.Fresh = phase("fresh", listFeed(feed.takeN(cfg.Writes)))
	if ctx.Err() != nil {
		return w, ctx.Err()
	}
	if w.Fresh.Sources[sourceAI] == 0 {
		return w, fmt.Errorf("no question got a built-in answer (%v)", w.Fresh.Sources)
	}
	if entries < cfg.CacheFill {
		before, asked := entries, 0
		// Bounded, in case the questions stop getting built-in answers.
		limit := 3*(cfg.CacheFill-before) + 100
		var mu sync.Mutex
		w.Fill = phase("fill", func(ai int) (question, bool) {
			mu.Lock()
			defer mu.Unlock()
			if before+ai >= cfg.CacheFill || asked >= limit {
				return question{}, false
			}
			asked++
			return feed.take(), true
		})
		if entries < cfg.CacheFill {
			s.warnf("writes: the cache holds %d entries, not %d, after %d more questions", entries, cfg.CacheFill, asked)
		}
	}
	if ctx.Err() != nil {
		return w, ctx.Err()
	}
	w.Full = phase("full", listFeed(feed.takeN(cfg.Writes)))
	if ctx.Err() != nil {
		return w, ctx.Err()
	}
	if w.Fresh.PerSecond > 0 {
		w.Flat = round4(w.Full.PerSecond / w.Fresh.PerSecond)
	}
	w.Synthesized = feed.synthesized
	if w.Synthesized > 0 {
		s.logf("writes: %d questions were XQuAD questions with a number appended (the pool has %d)", w.Synthesized, len(s.pool))
	}
	return w, nil
}

func firstFailure(as []answered) string {
	for _, a := range as {
		if a.err != nil || a.status != http.StatusOK {
			return describe(a.sent)
		}
	}
	return ""
}
