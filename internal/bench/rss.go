package bench

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// rss reads the memory of a fresh server on a copy of the KB after RSSRequests mixed requests
// (sent by conns clients) and Idle seconds of quiet: VmRSS is what it holds idle, VmHWM its
// peak. The mix (mixedQuestions) is four cache misses, four cache hits and two greetings in
// every ten requests.
func (s *suite) rss(ctx context.Context, k kbDir) (RSS, error) {
	cfg := s.cfg
	m := RSS{KBSize: k.meta.Size, Requests: cfg.RSSRequests}
	dir, cleanup, err := s.scratch("rss-"+strconv.Itoa(k.meta.Size), k)
	if err != nil {
		return m, err
	}
	defer cleanup()
	srv, err := s.serve(ctx, dir)
	if err != nil {
		return m, err
	}
	defer srv.stop()
	client := newClient(cfg.Conns)
	defer client.CloseIdleConnections()

	mix := mixedQuestions(&questionFeed{pool: s.pool}, cfg.RSSRequests, cfg.Conns)
	s.logf("rss %d: %d mixed requests, %d at a time", k.meta.Size, len(mix), cfg.Conns)
	as, elapsed := askAll(ctx, client, cfg.Conns, srv.base, k.keyFor, listFeed(mix))
	if ctx.Err() != nil {
		return m, ctx.Err()
	}
	client.CloseIdleConnections()
	m.Sources, m.Seconds = tally(as), round2(elapsed.Seconds())
	if bad := m.Sources["error"] + m.Sources["rate_limited"]; bad > 0 {
		s.warnf("rss: %d requests failed (first: %s)", bad, firstFailure(as))
	}
	idle := time.NewTimer(cfg.Idle)
	defer idle.Stop()
	select {
	case <-idle.C:
	case <-ctx.Done():
		return m, ctx.Err()
	}
	m.IdleSeconds = cfg.Idle.Seconds()
	rss, hwm, err := memory(srv.pid())
	if err != nil {
		return m, err
	}
	m.VmRSSMB, m.VmHWMMB = mb(rss), mb(hwm)
	s.logf("rss %d: %.0f MB idle after %s (peak %.0f MB) %v", k.meta.Size, m.VmRSSMB, cfg.Idle, m.VmHWMMB, m.Sources)
	if m.Sources[sourceAI] == 0 {
		return m, fmt.Errorf("no request got a built-in answer (%v)", m.Sources)
	}
	return m, nil
}

// mixedQuestions is the request list of the rss scenario: per ten requests, four new
// questions, four repeats of earlier new ones and two greetings. A repeat is of a question
// placed at least 2*conns requests earlier (round robin over those), so that with conns
// clients it has been answered and the repeat is a cache hit; until there is one, a greeting
// stands in.
func mixedQuestions(feed *questionFeed, n, conns int) []question {
	out := make([]question, 0, n)
	type placed struct {
		q   question
		pos int
	}
	var asked []placed
	repeat := 0
	for i := range n {
		switch i % 10 {
		case 0, 1, 2, 3:
			q := feed.take()
			asked = append(asked, placed{q, i})
			out = append(out, q)
		case 4, 5, 6, 7:
			old := 0
			for old < len(asked) && asked[old].pos <= i-2*conns {
				old++
			}
			if old == 0 {
				out = append(out, question{lang: "en", text: greeting})
				continue
			}
			out = append(out, asked[repeat%old].q)
			repeat++
		default:
			out = append(out, question{lang: "en", text: greeting})
		}
	}
	return out
}
