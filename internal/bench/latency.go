package bench

import (
	"context"
	"fmt"
	"net/http"
)

// latency asks distinct questions one at a time on one connection, on a fresh copy of the
// KB, each with the key of its language's account (the one account of a mixed KB): Warmup
// questions unmeasured, then Questions measured. Every question is new to the
// account, so each is a cache miss; only the built-in answers (source ai) are timed, since a
// fallback ("no answer found") skips the composing an answer costs. Every KB gets the same
// questions in the same order, so the sizes compare.
func (s *suite) latency(ctx context.Context, k kbDir) (Latency, error) {
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

	warm, measured := s.latencyQuestions("latency")
	s.logf("latency %s: %d warm-up and %d measured questions, one at a time", k.label(), len(warm), len(measured))
	if err := warmUp(ctx, client, srv, k, warm); err != nil {
		return l, err
	}
	m, _, err := measure(ctx, client, srv, k, measured)
	l.Asked, l.Sources, l.AI, l.CPUPerQuestion = m.Asked, m.Sources, m.AI, m.CPUPerQuestion
	if err != nil {
		return l, err
	}
	s.logf("latency %s: p50 %.1f ms, p90 %.1f, p99 %.1f over %d built-in answers %v; %.2f ms of server CPU a question",
		k.label(), l.AI.P50, l.AI.P90, l.AI.P99, l.AI.N, l.Sources, l.CPUPerQuestion)
	return l, nil
}

// latencyQuestions are the warm-up and measured questions of the latency scenario, the same
// for every KB (and for the hybrid scenario, so that its figures compare with these).
func (s *suite) latencyQuestions(scenario string) (warm, measured []question) {
	feed := &questionFeed{pool: s.pool}
	warm = feed.takeN(s.cfg.Warmup)
	measured = feed.takeN(s.cfg.Questions)
	if feed.synthesized > 0 {
		s.warnf("%s: %d of the questions were made from XQuAD questions with a number appended", scenario, feed.synthesized)
	}
	return warm, measured
}

// warmUp asks the warm-up questions one at a time, unmeasured; at least one must get a
// built-in answer, or the server is not answering as the measurement assumes.
func warmUp(ctx context.Context, client *http.Client, srv *server, k kbDir, warm []question) error {
	warmed, _ := askAll(ctx, client, 1, srv.base, k.keyFor, listFeed(warm))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(aiLatencies(warmed)) == 0 {
		return fmt.Errorf("no warm-up question got a built-in answer (%v; first: %s)", tally(warmed), outcome(warmed[0].sent))
	}
	return nil
}

// measure asks the measured questions one at a time and summarizes them: the outcomes, the
// built-in answers' times and the server's CPU time a question. It returns every outcome too.
func measure(ctx context.Context, client *http.Client, srv *server, k kbDir, measured []question) (Latency, []answered, error) {
	var l Latency
	cpu0, cpuOK := cpuTime(srv.pid())
	as, _ := askAll(ctx, client, 1, srv.base, k.keyFor, listFeed(measured))
	if ctx.Err() != nil {
		return l, as, ctx.Err()
	}
	l.Asked, l.Sources, l.AI = len(as), tally(as), summarize(aiLatencies(as))
	if cpu1, ok := cpuTime(srv.pid()); cpuOK && ok && len(as) > 0 {
		l.CPUPerQuestion = round2(float64((cpu1 - cpu0).Microseconds()) / 1000 / float64(len(as)))
	}
	if l.AI.N == 0 {
		return l, as, fmt.Errorf("no question got a built-in answer (%v)", l.Sources)
	}
	return l, as, nil
}
