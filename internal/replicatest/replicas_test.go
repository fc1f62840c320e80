package replicatest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"svc/internal/billing"
	"svc/internal/demo"
	"svc/internal/demo/demotest"
	"svc/internal/notify/smtptest"
	"svc/internal/redisconn/redistest"
	"svc/internal/store"
	"svc/internal/store/postgres"
)

// holdTTL is the replicas' SVC_HOLD_TTL: short, so that the holds of the replica the test
// kills lapse (and the others' sweep, every TTL/2, releases them) within seconds.
const holdTTL = 3 * time.Second

// cluster is three replicas on one database and one Redis, and what the test reads them by.
type cluster struct {
	bin, dbURL string
	env        []string // every replica's environment
	reps       []*replica
	st         *postgres.Store // the test's own reads of the shared database
	net        clients
	key        string // the account's secret key
	mail       *smtptest.Mailbox
}

// TestThreeReplicas runs three `svc serve` on one PostgreSQL schema and one Redis prefix,
// spreads requests round-robin, and checks what issue 16 asks of several replicas.
func TestThreeReplicas(t *testing.T) {
	dbURL := pgSchemaURL(t)
	redistest.Options(t) // skips, or fails under SVC_REQUIRE_REDIS=1, when Redis does not answer
	redisURL := os.Getenv("SVC_TEST_REDIS_URL")
	if redisURL == "" {
		redisURL = redistest.DefaultURL
	}
	c := &cluster{bin: buildSvc(t), dbURL: dbURL, mail: smtptest.Start(t)}
	c.env = []string{"PATH=" + os.Getenv("PATH"), "SVC_DATABASE_URL=" + dbURL, "SVC_REDIS_URL=" + redisURL,
		"SVC_REDIS_PREFIX=" + redistest.Prefix(t), "SVC_SMTP_URL=" + c.mail.URL(), "SVC_SMTP_FROM=svc@example.com",
		"SVC_HOLD_TTL=" + holdTTL.String(), "SVC_LOG_LEVEL=warn", "SVC_DATA=" + t.TempDir()}

	// One account, four times the default token prices so that a built-in answer costs about
	// 0.008 USD and the smallest daily budget (0.05) is reached within a few answers.
	created := c.run(t, "", "account", "create", "--name", "Replicas", "--email", "owner@example.com",
		"--balance-usd", "50", "--input-per-m-usd", "12", "--output-per-m-usd", "100")
	c.key = created["api_key"].(string)
	kb := t.TempDir() + "/kb.jsonl"
	b, _ := readAll(demo.Reader())
	if err := os.WriteFile(kb, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c.run(t, "", "kb", "import", kb, "--account", "1")
	c.run(t, "replica-test-password-1\n", "user", "add", "--account", "1", "--email", "owner@example.com",
		"--role", "owner", "--password-stdin")

	for i := range 3 {
		c.reps = append(c.reps, startReplica(t, c.bin, fmt.Sprintf("replica %d", i+1), c.env))
	}
	st, err := postgres.Open(context.Background(), dbURL, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c.st = st
	tokens := map[string]struct {
		token string
		id    int64
	}{}
	for _, name := range []string{"limits", "per-token", "budget", "kill"} {
		budget := "100"
		if name == "budget" {
			budget = "0.05"
		}
		r := api(t, c.net.from("127.0.0.1"), c.reps[0].base, http.MethodPost, "embedTokenCreate", c.key,
			url.Values{"domains": {"shop.example.com"}, "daily_budget_usd": {budget}, "label": {name}})
		var d struct {
			Token string `json:"token"`
			ID    int64  `json:"id"`
		}
		if r.status != 200 || json.Unmarshal(r.env.Data, &d) != nil || d.Token == "" {
			t.Fatalf("create token %s: %d %s", name, r.status, r.body)
		}
		tokens[name] = struct {
			token string
			id    int64
		}{d.Token, d.ID}
	}

	// One after the other: each check's keys are its own, but run at once on two cores the
	// budget's burst of 60 answers starves Redis's replies past the limiter's 75 ms timeout,
	// and a timed-out call is decided by the replica's own memory (the documented fallback).
	t.Run("send rate per key", c.sendLimit)
	t.Run("widget per visitor and per address", func(t *testing.T) { c.widgetLimits(t, tokens["limits"].token) })
	t.Run("widget new answers per token", func(t *testing.T) { c.tokenLimit(t, tokens["per-token"].token) })
	t.Run("budget", func(t *testing.T) { c.budget(t, tokens["budget"].token, tokens["budget"].id) })
	t.Run("key rotation", c.rotation)
	t.Run("kill a replica mid-answer", func(t *testing.T) { c.kill(t, tokens["kill"].token) })
}

// run runs one svc command on the shared database and decodes its JSON output.
func (c *cluster) run(t *testing.T, stdin string, args ...string) map[string]any {
	t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Env = c.env
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("svc %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return m
}

// serverError fails the test on a widget send the server could not answer. Parallel widget
// sends once deadlocked in the PostgreSQL store (40P01: FOR UPDATE on the account and token
// rows against the foreign-key checks of a visitor's new conversation), now NO KEY UPDATE.
func serverError(t *testing.T, err error) {
	t.Helper()
	t.Error(err)
}

// rep is the replica the i-th request of a round-robin goes to.
func (c *cluster) rep(i int) *replica { return c.reps[i%len(c.reps)] }

// sendLimit: 15 sends a minute per key (SERVICE.md) across the three replicas, then 429.
func (c *cluster) sendLimit(t *testing.T) {
	cl := c.net.from("127.0.0.1")
	exactLimit(t, "the key's sends", 15, func(i int) reply {
		return api(t, cl, c.rep(i).base, http.MethodPost, "send", c.key, url.Values{"message": {"How long does delivery take?"}})
	})
}

// exactLimit sends until the first 429 and checks that a limit of perMinute allowed exactly
// what one process's bucket would: perMinute at once plus one per 60/perMinute seconds the
// sends took (GCRA in Redis and Memory's token bucket refill alike), so on a loaded machine
// a slow run is not mistaken for a leak. The 429 must say when to retry.
func exactLimit(t *testing.T, what string, perMinute int, send func(i int) reply) {
	t.Helper()
	start := time.Now()
	for i := range 2*perMinute + 10 {
		r := send(i)
		switch r.status {
		case 200:
			continue
		case 429:
			refill := int(time.Since(start) / (time.Minute / time.Duration(perMinute)))
			if i < perMinute || i > perMinute+refill || r.retryAfter == "" {
				t.Fatalf("%s: refused after %d allowed in %s (limit %d a minute, %d refilled): Retry-After %q %s",
					what, i, time.Since(start), perMinute, refill, r.retryAfter, r.body)
			}
			return
		default:
			t.Fatalf("%s: request %d: %d %s", what, i+1, r.status, r.body)
		}
	}
	t.Fatalf("%s: never refused", what)
}

// embed sends one widget request and fails the test on a transport error.
func (c *cluster) embed(t *testing.T, ip string, rep *replica, method, action, token, visitor string, body map[string]string) reply {
	t.Helper()
	r, err := do(c.net.from(ip), embedReq(t, rep.base, method, action, token, visitor, body))
	if err != nil {
		t.Fatalf("%s %s on %s: %v", method, action, rep.name, err)
	}
	return r
}

// widgetLimits: a visitor's 10 messages a minute, then a client address's 30 requests a
// minute, each exact across the replicas (DECISIONS.md, SERVICE.md's Limits).
func (c *cluster) widgetLimits(t *testing.T, token string) {
	v := visitor(1, 1)
	exactLimit(t, "a visitor's messages", 10, func(i int) reply {
		return c.embed(t, "127.0.0.2", c.rep(i), http.MethodPost, "send", token, v, map[string]string{"message": "How long does delivery take?"})
	})
	exactLimit(t, "an address's requests", 30, func(i int) reply {
		return c.embed(t, "127.0.0.3", c.rep(i), http.MethodGet, "start", token, visitor(2, i), nil)
	})
}

// tokenLimit: a token's 60 new answers a minute (TokenAnswersPerMinute), exact across the
// replicas. Each question comes from an address and a visitor of its own, a crowd rather
// than a script, so the surge detector (which looks at questions per address) stays out of
// it. A question the answer cache serves (a reworded one) is no new answer and does not
// count, so the test counts the replies that passed the cache and expects the first 429
// after exactly 60 of them (within the sends that failed on the open store deadlock, which
// may or may not have reached the limiter).
func (c *cluster) tokenLimit(t *testing.T, token string) {
	passed, failed := 0, 0
	start := time.Now()
	for i := range 150 {
		rep := c.rep(i)
		r := c.embed(t, fmt.Sprintf("127.0.4.%d", i+1), rep, http.MethodPost, "send", token, visitor(6, i),
			map[string]string{"message": question(300 + i)})
		switch r.status {
		case 200:
			var d struct {
				Messages []struct {
					Source string `json:"source"`
				} `json:"messages"`
			}
			if json.Unmarshal(r.env.Data, &d) != nil || len(d.Messages) != 2 {
				t.Fatalf("new answer %d on %s: %s", i+1, rep.name, r.body)
			}
			if src := d.Messages[1].Source; src != "cache_tenant" && src != "cache_shared" {
				passed++
			}
		case 500:
			// The store's deadlock: before the limiter (the visitor's conversation) or after.
			failed++
			serverError(t, fmt.Errorf("new answer %d on %s: %d %.200s", i+1, rep.name, r.status, r.body))
		case 429:
			// The bucket holds 60 and refills one a second (GCRA, as Memory's token bucket):
			// a single process would allow 60 plus one per second the sends took.
			refill := int(time.Since(start) / time.Second)
			if passed > 60+refill || passed+failed < 60 || r.env.Error != "rate_limited" || r.retryAfter == "" {
				t.Fatalf("refused after %d new answers and %d server errors in %s (want 60, plus %d refilled): %d %s",
					passed, failed, time.Since(start), refill, r.status, r.body)
			}
			t.Logf("the token's limit refused the %d-th new answer after %d sends", passed+1, i+1)
			return
		default:
			t.Fatalf("new answer %d on %s: %d %s", i+1, rep.name, r.status, r.body)
		}
	}
	t.Fatalf("%d new answers and no 429", passed)
}

// budget: 60 visitors at once, each with a new question, on a 0.05 USD daily budget spread
// over the replicas: the token's spend passes the budget by at most one reservation (the
// budget is checked under the token's row lock with every replica's holds counted), and the
// owner gets exactly one e-mail although three outbox workers run.
func (c *cluster) budget(t *testing.T, token string, tokenID int64) {
	var wg sync.WaitGroup
	errc := make(chan error, 60)
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep := c.rep(i)
			r, err := do(c.net.from(fmt.Sprintf("127.0.2.%d", i+1)), embedReq(t, rep.base, http.MethodPost, "send", token,
				visitor(4, i), map[string]string{"message": question(i)}))
			if err == nil && r.status != 200 {
				err = fmt.Errorf("visitor %d on %s: %d %.200s", i, rep.name, r.status, r.body)
			}
			if err != nil {
				errc <- err
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		serverError(t, err)
	}
	// One built-in answer's reservation at the account's rates (chat's hold before it has
	// seen answers): the most the parallel visitors may overshoot by.
	hold := billing.Cost(2500, 500, 4*billing.DefaultInputRate, 4*billing.DefaultOutputRate)
	spend, err := c.st.EmbedSpend(context.Background(), 1, tokenID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("60 parallel visitors on 3 replicas: spend %d micro-USD of a 50,000 budget, bound %d", spend, 50_000+hold)
	if spend < 50_000 {
		t.Fatalf("spend %d micro-USD: the 50,000 budget was not reached", spend)
	}
	if spend > 50_000+hold {
		// Seen in 1 of about 8 runs (152,836) while a widget answer held what billing.Holds
		// sized from recent answers, which one answer in twenty passes; it holds the worst
		// case now (chat.hold).
		t.Errorf("spend %d micro-USD overshoots the 50,000 budget by more than one hold (%d)", spend, hold)
	}
	waitFor(t, 20*time.Second, "the owner's budget e-mail", func() bool { return len(received(c.mail)) >= 1 })
	// Every notice of the account delivered, and still one e-mail: three outbox workers
	// claimed it, one sent it.
	waitFor(t, 20*time.Second, "the outbox to drain", func() bool { return c.pendingNotices(t) == 0 })
	if got := received(c.mail); len(got) != 1 || got[0] != "owner@example.com" {
		t.Fatalf("owner e-mails: %q, want exactly one to owner@example.com", got)
	}
}

// pendingNotices counts the notices not yet sent.
func (c *cluster) pendingNotices(t *testing.T) int {
	t.Helper()
	var n int
	c.sql(t, func(conn *pgx.Conn) error {
		return conn.QueryRow(context.Background(), "SELECT count(*) FROM notices WHERE status <> 'sent'").Scan(&n)
	})
	return n
}

// sql runs f on a connection of its own to the test's schema.
func (c *cluster) sql(t *testing.T, f func(*pgx.Conn) error) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := f(conn); err != nil {
		t.Fatal(err)
	}
}

// keyPattern finds a secret key in the dashboard's page.
var keyPattern = regexp.MustCompile(`svc_pk_[A-Za-z0-9_-]{20,}`)

// rotation: the owner rotates the key in the dashboard of replica 1; the very next request
// with the old key on replicas 2 and 3 is refused, and the new key works there.
func (c *cluster) rotation(t *testing.T) {
	cl := c.net.from("127.0.0.4")
	rep := c.reps[0]
	post := func(path string, form url.Values) reply {
		req, _ := http.NewRequest(http.MethodPost, rep.base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", rep.base)
		r, err := do(cl, req)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := post("/dashboard/login", url.Values{"email": {"owner@example.com"}, "password": {"replica-test-password-1"}}); r.status != http.StatusSeeOther {
		t.Fatalf("sign in on replica 1: %d %.300s", r.status, r.body)
	}
	r := post("/dashboard/developer/rotate", nil)
	var fresh string
	for _, k := range keyPattern.FindAllString(r.body, -1) {
		if k != c.key && len(k) == len(c.key) {
			fresh = k
		}
	}
	if r.status != 200 || fresh == "" {
		t.Fatalf("rotate on replica 1: %d, new key found %v", r.status, fresh != "")
	}
	old := c.key
	c.key = fresh
	api2 := c.net.from("127.0.0.5")
	for _, other := range c.reps[1:] {
		if r := api(t, api2, other.base, http.MethodGet, "getTone", old, nil); r.status != 401 {
			t.Fatalf("the old key on %s right after the rotation: %d %s", other.name, r.status, r.body)
		}
		if r := api(t, api2, other.base, http.MethodGet, "getTone", fresh, nil); r.status != 200 {
			t.Fatalf("the new key on %s: %d %s", other.name, r.status, r.body)
		}
	}
}

// kill: replica 3 is restarted with a language model that never answers, so its widget
// answers hang holding their reservations; it is then killed with SIGKILL while the other
// two keep answering. The other two go on serving, the killed replica's holds are released
// once they lapse (the survivors' sweep), no charge exists without its answer, and the
// ledger check passes.
func (c *cluster) kill(t *testing.T, token string) {
	var modelCalls atomic.Int64
	release := make(chan struct{})
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		modelCalls.Add(1)
		select { // never answers: the connection ends when the replica dies (or the test does)
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer model.Close()
	defer close(release) // before Close, which waits for the handlers
	c.reps[2].stop(t)
	env := append(append([]string(nil), c.env...), "SVC_LLM_PROVIDER=openai", "SVC_LLM_BASE_URL="+model.URL+"/v1",
		"SVC_LLM_API_KEY=test-model-key", "SVC_LLM_MAX_RETRIES=0", "SVC_LLM_TIMEOUT=5m")
	c.reps[2] = startReplica(t, c.bin, "replica 3 (hanging model)", env)
	victim := c.reps[2]

	var wg sync.WaitGroup
	var answered atomic.Int64
	send := func(i int, rep *replica) {
		defer wg.Done()
		r, err := do(c.net.from(fmt.Sprintf("127.0.3.%d", i+1)), embedReq(t, rep.base, http.MethodPost, "send", token,
			visitor(5, i), map[string]string{"message": hangingQuestion(i)}))
		switch {
		case rep == victim:
			if err == nil && r.status != 500 { // a 500: the store deadlock, before the kill
				t.Errorf("the killed replica answered visitor %d: %d %s", i, r.status, r.body)
			}
		case err != nil || r.status != 200:
			serverError(t, fmt.Errorf("visitor %d on %s: %v %d %.200s", i, rep.name, err, r.status, r.body))
		default:
			answered.Add(1)
		}
	}
	// The victim's requests first, so their holds exist before the kill.
	for i := range 4 {
		wg.Add(1)
		go send(i, victim)
	}
	// At least one hanging answer holds money (a send may fail on the open store deadlock
	// before it reserves, and a hold lapses after holdTTL even while its replica lives).
	var held int
	waitFor(t, 20*time.Second, "the hanging answers' reservations", func() bool {
		held = c.ledger(t).Reservations
		return modelCalls.Load() >= 1 && held >= 1
	})
	for i := 4; i < 16; i++ {
		wg.Add(1)
		go send(i, c.reps[i%2])
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	wg.Wait()
	// The survivors keep serving, on the API too.
	for i, rep := range c.reps[:2] {
		if r := c.embed(t, fmt.Sprintf("127.0.3.%d", 100+i), rep, http.MethodPost, "send", token, visitor(5, 100+i),
			map[string]string{"message": question(200 + i)}); r.status != 200 {
			t.Fatalf("%s after the kill: %d %s", rep.name, r.status, r.body)
		}
		if r := api(t, c.net.from("127.0.0.6"), rep.base, http.MethodGet, "getTone", c.key, nil); r.status != 200 {
			t.Fatalf("%s's API after the kill: %d %s", rep.name, r.status, r.body)
		}
	}
	t.Logf("%d answers from the survivors; replica 3 was killed while %d answers held money", answered.Load(), held)
	// The killed replica's holds lapse after holdTTL; the survivors' sweep (every TTL/2)
	// gives them back.
	waitFor(t, 3*holdTTL+5*time.Second, "the killed replica's reservations to be released", func() bool {
		l := c.ledger(t)
		return l.Reservations == 0 && l.ReservedMicro == 0
	})
	// No charge without its answer: every charge row names an assistant message that exists,
	// and no hung visitor (0..3) has an assistant message or a charge.
	var orphans, hung int
	c.sql(t, func(conn *pgx.Conn) error {
		if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM ledger l WHERE l.kind = 'charge' AND NOT EXISTS
			(SELECT 1 FROM messages m WHERE m.id = l.message_id AND m.role = 'assistant')`).Scan(&orphans); err != nil {
			return err
		}
		return conn.QueryRow(context.Background(), `SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
			WHERE m.role = 'assistant' AND c.visitor = ANY($1)`,
			[]string{visitor(5, 0), visitor(5, 1), visitor(5, 2), visitor(5, 3)}).Scan(&hung)
	})
	if orphans != 0 || hung != 0 {
		t.Fatalf("%d charges without an answer; %d answers for the killed replica's visitors", orphans, hung)
	}
	if out := c.run(t, "", "ledger", "check"); out["ok"] != true {
		t.Fatalf("ledger check: %v", out)
	}
}

// ledger is account 1's money as the store reads it.
func (c *cluster) ledger(t *testing.T) store.AccountLedger {
	t.Helper()
	rep, err := c.st.CheckLedger(context.Background(), 1, time.Now())
	if err != nil || len(rep.Accounts) != 1 {
		t.Fatalf("check ledger: %v %v", err, rep)
	}
	return rep.Accounts[0]
}

// question is the i-th distinct new question: the KB's own first, then numbered ones. The
// number names a trip, not a product's variant: "colour number 103" of a tent the shop sells
// in no such colour is now (rightly) a fallback, which never reaches the model.
func question(i int) string {
	if i < len(demotest.Questions) {
		return demotest.Questions[i]
	}
	return fmt.Sprintf("Is the Uludağ 2 Tent waterproof? Asking for trip %d.", i)
}

// hangingQuestion is the question visitor i of the kill step asks: for the first four, which
// go to the replica whose model hangs, one the demo KB answers that no earlier step asked (a
// product's price in German), so that neither the answer cache nor the built-in engine's
// decline keeps it from the model; for the others, a numbered new question.
func hangingQuestion(i int) string {
	unasked := []string{"Was kostet das Uludağ 2 Zelt?", "Was kostet der Aladağ 35 Rucksack?",
		"Was kostet die Poyraz Regenjacke?", "Was kostet der Erciyes -5 Schlafsack?"}
	if i < len(unasked) {
		return unasked[i]
	}
	return question(100 + i)
}

func readAll(r io.Reader) ([]byte, error) { return io.ReadAll(r) }
