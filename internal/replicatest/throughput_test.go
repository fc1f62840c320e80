package replicatest

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/demo/demotest"
)

// TestReplicaThroughput measures API sends a second and their p99 on one SQLite process and
// on one and three replicas sharing PostgreSQL and Redis (BENCHMARKS.md, "Several
// replicas"). It runs only with SVC_REPLICA_BENCH=1: it takes about a minute and its numbers
// depend on the machine. Every replica shares the same cores, so three replicas show that
// the shared state holds at scale, not that they are faster.
//
//	SVC_REPLICA_BENCH=1 go test ./internal/replicatest -run TestReplicaThroughput -v -count=1
func TestReplicaThroughput(t *testing.T) {
	if os.Getenv("SVC_REPLICA_BENCH") != "1" {
		t.Skip("a measurement: set SVC_REPLICA_BENCH=1 to run it")
	}
	dbURL := pgSchemaURL(t)
	redisURL := os.Getenv("SVC_TEST_REDIS_URL")
	if redisURL == "" {
		redisURL = "redis://127.0.0.1:6379/0"
	}
	bin := buildSvc(t)
	const clients, accounts = 8, 8
	window := 8 * time.Second
	if v, err := time.ParseDuration(os.Getenv("SVC_REPLICA_BENCH_WINDOW")); err == nil && v > 0 {
		window = v
	}
	setups := []struct {
		name     string
		replicas int
		env      []string
	}{
		{"SQLite, 1 process", 1, []string{"SVC_DATA=" + t.TempDir()}},
		{"PostgreSQL + Redis, 1 replica", 1, []string{"SVC_DATABASE_URL=" + dbURL, "SVC_REDIS_URL=" + redisURL,
			"SVC_REDIS_PREFIX=svcbench:" + fmt.Sprint(time.Now().UnixNano()) + ":", "SVC_DATA=" + t.TempDir()}},
		{"PostgreSQL + Redis, 3 replicas", 3, nil}, // the previous setup's database, more replicas
	}
	setups[2].env = setups[1].env
	var keys []string
	for _, s := range setups {
		env := append([]string{"PATH=" + os.Getenv("PATH"), "SVC_LOG_LEVEL=error"}, s.env...)
		c := &cluster{bin: bin, env: env}
		if s.replicas == 1 { // a new store: its accounts
			keys = keys[:0]
			kb := t.TempDir() + "/kb.jsonl"
			writeDemoKB(t, kb)
			for i := range accounts {
				m := c.run(t, "", "account", "create", "--name", fmt.Sprint("Bench ", i), "--plan", "custom",
					"--balance-usd", "100000", "--send-rate-per-min", "1000000")
				keys = append(keys, m["api_key"].(string))
				c.run(t, "", "kb", "import", kb, "--account", fmt.Sprint(i+1))
			}
		}
		var reps []*replica
		for i := range s.replicas {
			reps = append(reps, startReplica(t, bin, fmt.Sprintf("%s #%d", s.name, i+1), env))
		}
		for _, mode := range []string{"cache hit", "new answer"} {
			rate, p50, p99, errors := load(t, reps, keys, clients, window, mode == "new answer", s.name)
			t.Logf("| %s | %s | %.0f | %.1f | %.1f | %d |", s.name, mode, rate, p50, p99, errors)
		}
		for _, r := range reps {
			r.stop(t)
		}
	}
}

// load runs clients sending for window, round-robin over the replicas, each client on its
// own account; it returns sends a second, the median and p99 in ms, and the failed sends.
func load(t *testing.T, reps []*replica, keys []string, clients int, window time.Duration, fresh bool, tag string) (float64, float64, float64, int) {
	var mu sync.Mutex
	var lat []time.Duration
	var failed atomic.Int64
	var seq atomic.Int64
	deadline := time.Now().Add(window)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := &http.Client{Timeout: 30 * time.Second}
			for time.Now().Before(deadline) {
				n := int(seq.Add(1))
				msg := "How long does delivery take?"
				if fresh {
					// A question the KB answers, made new by its reference number: a cache miss
					// that the engine answers and the account pays for.
					msg = fmt.Sprintf("%s (reference %d, %s)", demotest.Questions[n%len(demotest.Questions)], n, tag)
				}
				req, _ := http.NewRequest(http.MethodPost, reps[n%len(reps)].base+"/api/v1/chat/send",
					stringsReader(url.Values{"message": {msg}}.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Authorization", "Bearer "+keys[c%len(keys)])
				start := time.Now()
				r, err := do(cl, req)
				d := time.Since(start)
				if err != nil || r.status != 200 {
					failed.Add(1)
					continue
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(lat) == 0 {
		t.Fatalf("%s: no send succeeded", tag)
	}
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
	return float64(len(lat)) / window.Seconds(), ms(0.5), ms(0.99), int(failed.Load())
}
