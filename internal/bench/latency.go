package bench

import (
	"context"
	"fmt"
)

// latency asks distinct questions one at a time on one connection, on a fresh copy of the
// KB, each with the key of its language's account (the one account of a mixed KB): Warmup
// questions unmeasured, then Questions measured. Every question is new to the
// account, so each is a cache miss; only the built-in answers (source ai) are timed, since a
// fallback ("no answer found") skips the composing an answer costs. Every KB gets the same
// questions in the same order, so the sizes compare.
func (s *suite) latency(ctx context.Context, k kbDir) (Latency, error) {
	cfg := s.cfg
	l := Latency{Shape: k.shape(), KBSize: k.meta.Size, Accounts: max(1, len(k.meta.Accounts)), Chunks: k.meta.Chunks}
	dir, cleanup, err := s.scratch("latency-"+k.label(), k)
	if err != nil {
		return l, err
	}
	defer cleanup()
	srv, err := s.serve(ctx, dir)
	if err != nil {
		return l, err
	}
	defer srv.stop()
	client := newClient(1)
	defer client.CloseIdleConnections()

	feed := &questionFeed{pool: s.pool}
	warm := feed.takeN(cfg.Warmup)
	measured := feed.takeN(cfg.Questions)
	if feed.synthesized > 0 {
		s.warnf("latency: %d of the questions were made from XQuAD questions with a number appended", feed.synthesized)
	}
	s.logf("latency %s: %d warm-up and %d measured questions, one at a time", k.label(), len(warm), len(measured))
	warmed, _ := askAll(ctx, client, 1, srv.base, k.keyFor, listFeed(warm))
	if ctx.Err() != nil {
		return l, ctx.Err()
	}
	if len(aiLatencies(warmed)) == 0 {
		return l, fmt.Errorf("no warm-up question got a built-in answer (%v; first: %s)", tally(warmed), outcome(warmed[0].sent))
	}
	cpu0, cpuOK := cpuTime(srv.pid())
	as, _ := askAll(ctx, client, 1, srv.base, k.keyFor, listFeed(measured))
	if ctx.Err() != nil {
		return l, ctx.Err()
	}
	l.Asked, l.Sources, l.AI = len(as), tally(as), summarize(aiLatencies(as))
	if cpu1, ok := cpuTime(srv.pid()); cpuOK && ok && len(as) > 0 {
		l.CPUPerQuestion = round2(float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(len(as)))
	}
	if l.AI.N == 0 {
		return l, fmt.Errorf("no question got a built-in answer (%v)", l.Sources)
	}
	s.logf("latency %s: p50 %.1f ms, p90 %.1f, p99 %.1f over %d built-in answers %v; %.2f ms of server CPU a question",
		k.label(), l.AI.P50, l.AI.P90, l.AI.P99, l.AI.N, l.Sources, l.CPUPerQuestion)
	return l, nil
}
