package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// sendPath is the API action every scenario calls.
const sendPath = "/api/v1/chat/send"

// Reply sources (SERVICE.md) the scenarios tell apart.
const (
	sourceAI          = "ai"
	sourceCacheTenant = "cache_tenant"
	sourceCacheShared = "cache_shared"
)

// newClient is a keep-alive client with up to conns connections to one host.
func newClient(conns int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
			DisableCompression: true, IdleConnTimeout: time.Minute},
		Timeout: 2 * time.Minute,
	}
}

// sendReq is one prepared `send`: the same bytes go to the service and to the reference.
type sendReq struct {
	url, auth string
	body      []byte
}

func newSendReq(base, key, message string) sendReq {
	return sendReq{url: base + sendPath, auth: "Bearer " + key, body: []byte("message=" + url.QueryEscape(message))}
}

// message is the question r sends, for error messages.
func (r sendReq) message() string {
	v, err := url.ParseQuery(string(r.body))
	if err != nil {
		return string(r.body)
	}
	return v.Get("message")
}

// sent is the outcome of one request.
type sent struct {
	status  int
	source  string // the assistant reply's source, when the body was parsed
	latency time.Duration
	err     error
}

// do sends r; with parse it reads the reply's source from the body, otherwise it only reads
// the body to the end (so the connection is reused), as a load generator such as wrk does.
func (r sendReq) do(ctx context.Context, c *http.Client, parse bool) sent {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(r.body))
	if err != nil {
		return sent{err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", r.auth)
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return sent{err: err, latency: time.Since(start)}
	}
	defer resp.Body.Close()
	out := sent{status: resp.StatusCode}
	if !parse || resp.StatusCode != http.StatusOK {
		_, err = io.Copy(io.Discard, resp.Body)
		out.latency, out.err = time.Since(start), err
		return out
	}
	var env struct {
		Data struct {
			Messages []struct {
				Role   string `json:"role"`
				Source string `json:"source"`
			} `json:"messages"`
		} `json:"data"`
	}
	err = json.NewDecoder(resp.Body).Decode(&env)
	_, _ = io.Copy(io.Discard, resp.Body)
	out.latency = time.Since(start)
	if err != nil {
		out.err = fmt.Errorf("decode reply: %w", err)
		return out
	}
	for _, m := range env.Data.Messages {
		if m.Role == "assistant" {
			out.source = m.Source
		}
	}
	return out
}

// loadRun is one fixed-duration run of the load generator.
type loadRun struct {
	ok, limited, failed int
	elapsed             time.Duration
	latencies           []time.Duration // of the 200 answers
	firstFailure        string
	// cpu is the CPU time the server used during the run, when measured.
	cpu time.Duration
}

func (l loadRun) perSecond() float64 {
	if l.elapsed <= 0 {
		return 0
	}
	return float64(l.ok) / l.elapsed.Seconds()
}

// cpuPerRequest is the server's CPU time a request, in microseconds; 0 when not measured.
func (l loadRun) cpuPerRequest() float64 {
	n := l.ok + l.limited + l.failed
	if l.cpu <= 0 || n == 0 {
		return 0
	}
	return float64(l.cpu.Microseconds()) / float64(n)
}

// hammer keeps conns workers sending for d, or until limit requests have been sent when limit
// is above zero, each worker w sending reqs[w%len(reqs)] again and again on its own
// keep-alive connection. The rate is the 200 answers over the time until the last worker's
// last answer.
func hammer(ctx context.Context, c *http.Client, d time.Duration, conns int, reqs []sendReq, limit int64) loadRun {
	start := time.Now()
	deadline := start.Add(d)
	runs := make([]loadRun, conns)
	var sentN atomic.Int64
	var wg sync.WaitGroup
	for w := range conns {
		wg.Go(func() {
			r := reqs[w%len(reqs)]
			run := &runs[w]
			for time.Now().Before(deadline) && ctx.Err() == nil && (limit <= 0 || sentN.Add(1) <= limit) {
				s := r.do(ctx, c, false)
				run.count(s)
			}
		})
	}
	wg.Wait()
	total := loadRun{elapsed: time.Since(start)}
	for _, r := range runs {
		total.ok += r.ok
		total.limited += r.limited
		total.failed += r.failed
		total.latencies = append(total.latencies, r.latencies...)
		if total.firstFailure == "" {
			total.firstFailure = r.firstFailure
		}
	}
	return total
}

func (l *loadRun) count(s sent) {
	switch {
	case s.err == nil && s.status == http.StatusOK:
		l.ok++
		l.latencies = append(l.latencies, s.latency)
	case s.status == http.StatusTooManyRequests:
		l.limited++
	default:
		l.failed++
		if l.firstFailure == "" {
			l.firstFailure = describe(s)
		}
	}
}

func describe(s sent) string {
	if s.err != nil {
		return s.err.Error()
	}
	return fmt.Sprintf("HTTP %d", s.status)
}

// answered is one question of a list and its outcome.
type answered struct {
	q question
	sent
}

// askAll sends questions from next with conns workers until next reports no more, each with
// the key of its language (keyFor), parsing every reply. next is told how many built-in (ai)
// answers have come back so far. askAll returns the outcomes in completion order and the wall
// time.
func askAll(ctx context.Context, c *http.Client, conns int, base string, keyFor func(lang string) string,
	next func(ai int) (question, bool)) ([]answered, time.Duration) {
	var mu sync.Mutex
	var out []answered
	ai := 0
	start := time.Now()
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				n := ai
				mu.Unlock()
				q, ok := next(n)
				if !ok {
					return
				}
				s := newSendReq(base, keyFor(q.lang), q.text).do(ctx, c, true)
				mu.Lock()
				out = append(out, answered{q: q, sent: s})
				if s.err == nil && s.status == http.StatusOK && s.source == sourceAI {
					ai++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out, time.Since(start)
}

// listFeed hands out qs in order, safe for concurrent workers.
func listFeed(qs []question) func(int) (question, bool) {
	var mu sync.Mutex
	i := 0
	return func(int) (question, bool) {
		mu.Lock()
		defer mu.Unlock()
		if i >= len(qs) {
			return question{}, false
		}
		i++
		return qs[i-1], true
	}
}

// tally counts answers by outcome: the source of each 200, "error" for anything else.
func tally(as []answered) map[string]int {
	out := map[string]int{}
	for _, a := range as {
		switch {
		case a.err == nil && a.status == http.StatusOK:
			out[a.source]++
		case a.status == http.StatusTooManyRequests:
			out["rate_limited"]++
		default:
			out["error"]++
		}
	}
	return out
}

// aiLatencies are the response times of the answers with source ai.
func aiLatencies(as []answered) []time.Duration {
	var out []time.Duration
	for _, a := range as {
		if a.err == nil && a.status == http.StatusOK && a.source == sourceAI {
			out = append(out, a.latency)
		}
	}
	return out
}
