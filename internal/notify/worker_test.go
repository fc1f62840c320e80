package notify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type env struct {
	t      *testing.T
	dir    string
	clock  *storetest.Clock // the time the store and the worker share
	store  *sqlite.Store
	server *testServer
	logs   *syncBuffer
}

// 15:30 UTC on 14 March 2026: the budget's day, resetting at 00:00 UTC on 15 March.
var testNow = time.Date(2026, 3, 14, 15, 30, 0, 0, time.UTC)

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), clock: storetest.ClockAt(testNow), logs: &syncBuffer{}}
	e.store = e.open()
	e.server = newTestServer(t)
	return e
}

// open opens a store on the env's data directory (another call: another process).
func (e *env) open() *sqlite.Store {
	e.t.Helper()
	s, err := sqlite.Open(context.Background(), e.dir, sqlite.Options{Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { s.Close() })
	return s
}

func (e *env) sender(rawURL string) *SMTP {
	e.t.Helper()
	if rawURL == "" {
		rawURL = e.server.url("smtp", "", "")
	}
	s, err := NewSMTP(rawURL, "svc <noreply@svc.test>")
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) worker(st store.Store, sender Sender) *Worker {
	return NewWorker(Deps{Store: st, Sender: sender, Now: e.clock.Now, PublicURL: "https://svc.example/",
		Log: slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
}

// owner creates an account with an e-mail address and language.
func (e *env) owner(name, email, lang string) store.Account {
	e.t.Helper()
	a, _ := storetest.NewAccount(e.t, e.store, name, 1_000_000)
	a.Email, a.Lang = email, lang
	if err := e.store.UpdateAccount(context.Background(), &a); err != nil {
		e.t.Fatal(err)
	}
	return a
}

func (e *env) token(a store.Account, label string, budget int64, domains ...string) store.EmbedToken {
	e.t.Helper()
	h := sha256.Sum256([]byte(fmt.Sprint("token ", a.ID, label)))
	tok := store.EmbedToken{AccountID: a.ID, Prefix: fmt.Sprintf("svc_emb_%x", h[:4]), Hash: h[:], Label: label,
		Domains: domains, DailyBudgetMicro: budget}
	if err := e.store.CreateEmbedToken(context.Background(), &tok, 10); err != nil {
		e.t.Fatalf("create embed token: %v", err)
	}
	return tok
}

// budgetReached queues the notice SaveTurn would queue for tok at spend.
func (e *env) budgetReached(a store.Account, tok store.EmbedToken, spend int64) store.Notice {
	e.t.Helper()
	now := e.clock.Now()
	since := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	n := store.BudgetNotice(a.ID, store.TokenBudget{TokenID: tok.ID, LimitMicro: tok.DailyBudgetMicro, Since: since}, spend)
	if queued, err := e.store.EnqueueNotice(context.Background(), &n); err != nil || !queued {
		e.t.Fatalf("enqueue: %v %v", queued, err)
	}
	return n
}

func (e *env) notice(accountID, id int64) store.Notice {
	e.t.Helper()
	ns, err := e.store.Notices(context.Background(), accountID)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, n := range ns {
		if n.ID == id {
			return n
		}
	}
	e.t.Fatalf("notice %d missing", id)
	return store.Notice{}
}

func flush(t *testing.T, w *Worker, want int) {
	t.Helper()
	sent, err := w.Flush(context.Background())
	if err != nil {
		t.Fatalf("flush: %v", err)
	}
	if sent != want {
		t.Fatalf("flush sent %d, want %d", sent, want)
	}
}

func TestBudgetNoticeArrivesOnceInTheOwnersLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang, subject string
		facts         []string
	}{
		{"en", "Daily budget reached for your chat widget “Summer shop”", []string{
			"Your chat widget “Summer shop” has reached its daily budget for 14 March 2026 (UTC).",
			"frequently asked questions from your knowledge base, free of charge",
			"New AI answers are paused until the budget resets on 15 March 2026 at 00:00 UTC.",
			"Allowed domains: shop.example, www.shop.example",
		}},
		{"tr", "Sohbet widget'ınızın günlük bütçesi doldu: “Summer shop”", []string{
			"“Summer shop” adlı sohbet widget'ınız 14 Mart 2026 (UTC) günü için belirlenen günlük bütçesine ulaştı.",
			"sık sorulan soruları bilgi tabanınızdan ücretsiz olarak yanıtlamayı sürdürüyor",
			"Yeni yapay zekâ yanıtları ise bütçe 15 Mart 2026 günü saat 00:00'da (UTC) sıfırlanana kadar duraklatıldı.",
			"İzin verilen alan adları: shop.example, www.shop.example",
		}},
		{"de", "Tagesbudget Ihres Chat-Widgets „Summer shop“ erreicht", []string{
			"Ihr Chat-Widget „Summer shop“ hat sein Tagesbudget für den 14. März 2026 (UTC) erreicht.",
			"Häufig gestellte Fragen beantwortet es weiterhin kostenlos aus Ihrer Wissensdatenbank.",
			"Neue KI-Antworten sind jedoch pausiert, bis das Budget am 15. März 2026 um 00:00 UTC zurückgesetzt wird.",
			"Erlaubte Domains:",
		}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			e := newEnv(t)
			a := e.owner("Shop "+tc.lang, "owner-"+tc.lang+"@shop.example", tc.lang)
			tok := e.token(a, "Summer shop", 50_000, "shop.example", "www.shop.example")
			n := e.budgetReached(a, tok, 51_249)
			w := e.worker(e.store, e.sender(""))

			flush(t, w, 1)
			got := e.server.received()
			if len(got) != 1 {
				t.Fatalf("%d messages, want 1", len(got))
			}
			m := got[0]
			if len(m.To) != 1 || m.To[0] != a.Email || !strings.Contains(m.Header.Get("To"), a.Email) {
				t.Fatalf("recipient %v / %q, want %s", m.To, m.Header.Get("To"), a.Email)
			}
			if m.Subject != tc.subject {
				t.Fatalf("subject %q, want %q", m.Subject, tc.subject)
			}
			facts := append(tc.facts, "0.0500 USD", "0.0512 USD", "shop.example, www.shop.example",
				"POST https://svc.example/api/v1/chat/embedTokenUpdate", fmt.Sprintf("id=%d", tok.ID),
				"daily_budget_usd=0.1000",
				fmt.Sprintf(`curl -X POST https://svc.example/api/v1/chat/embedTokenUpdate -H "Authorization: Bearer $SVC_KEY" -d id=%d -d daily_budget_usd=0.1000`, tok.ID))
			for _, f := range facts {
				if !strings.Contains(m.Body, f) {
					t.Errorf("body lacks %q:\n%s", f, m.Body)
				}
			}
			if sent := e.notice(a.ID, n.ID); sent.Status != store.NoticeSent || !sent.SentAt.Equal(testNow) || sent.Attempts != 0 {
				t.Fatalf("notice after sending: %+v", sent)
			}

			flush(t, w, 0)
			e.clock.Advance(48 * time.Hour)
			flush(t, w, 0)
			if len(e.server.received()) != 1 {
				t.Fatal("sent twice")
			}
		})
	}
}

func TestServerDownThenDeliveredOnce(t *testing.T) {
	e := newEnv(t)
	a := e.owner("Outage", "owner@outage.example", "de")
	n := e.budgetReached(a, e.token(a, "", 250_000, "outage.example"), 250_000)
	addr := e.server.Addr
	w := e.worker(e.store, e.sender(""))
	e.server.stop()

	flush(t, w, 0)
	got := e.notice(a.ID, n.ID)
	if got.Status != store.NoticePending || got.Attempts != 1 || got.LastError == "" ||
		!got.NextAttemptAt.Equal(testNow.Add(time.Minute)) {
		t.Fatalf("after the failed attempt: %+v", got)
	}
	if !strings.Contains(e.logs.String(), "will retry") {
		t.Fatalf("the failure was not logged:\n%s", e.logs)
	}

	e.server.start(addr)
	e.clock.Advance(30 * time.Second)
	flush(t, w, 0) // not due yet
	if len(e.server.received()) != 0 || e.notice(a.ID, n.ID).Attempts != 1 {
		t.Fatal("retried before its backoff")
	}
	e.clock.Advance(31 * time.Second)
	flush(t, w, 1)
	flush(t, w, 0)
	msgs := e.server.received()
	if len(msgs) != 1 || msgs[0].To[0] != "owner@outage.example" {
		t.Fatalf("after the outage: %d messages %+v", len(msgs), msgs)
	}
	if got := e.notice(a.ID, n.ID); got.Status != store.NoticeSent || got.Attempts != 1 {
		t.Fatalf("after delivery: %+v", got)
	}
	// No label: the token is named by its prefix.
	if !strings.Contains(msgs[0].Subject, "svc_emb_") || !strings.Contains(msgs[0].Body, "0.2500 USD") {
		t.Fatalf("subject %q body:\n%s", msgs[0].Subject, msgs[0].Body)
	}
}

func TestTemporaryRejectionThenDeliveredOnce(t *testing.T) {
	e := newEnv(t)
	a := e.owner("Greylisted", "owner@grey.example", "tr")
	n := e.budgetReached(a, e.token(a, "Gri", 50_000, "grey.example"), 60_000)
	w := e.worker(e.store, e.sender(""))
	e.server.failSessions(2)

	flush(t, w, 0)
	if got := e.notice(a.ID, n.ID); got.Attempts != 1 || !strings.Contains(got.LastError, "451") ||
		!got.NextAttemptAt.Equal(testNow.Add(time.Minute)) {
		t.Fatalf("after a 451: %+v", got)
	}
	e.clock.Advance(time.Minute)
	flush(t, w, 0)
	if got := e.notice(a.ID, n.ID); got.Attempts != 2 || !got.NextAttemptAt.Equal(testNow.Add(3*time.Minute)) {
		t.Fatalf("after the second 451 the wait doubles: %+v", got)
	}
	e.clock.Advance(2 * time.Minute)
	flush(t, w, 1)
	flush(t, w, 0)
	if msgs := e.server.received(); len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	if got := e.notice(a.ID, n.ID); got.Status != store.NoticeSent || got.Attempts != 2 {
		t.Fatalf("after delivery: %+v", got)
	}
}

func TestConcurrentWorkersDeliverEachNoticeOnce(t *testing.T) {
	e := newEnv(t)
	other := e.open() // a second process on the same data
	var want []string
	for i := range 12 {
		a := e.owner(fmt.Sprint("Crowd ", i), fmt.Sprintf("owner%d@crowd.example", i), []string{"en", "tr", "de"}[i%3])
		e.budgetReached(a, e.token(a, fmt.Sprint("w", i), 50_000, "crowd.example"), 50_000)
		want = append(want, a.Email)
	}
	workers := []*Worker{e.worker(e.store, e.sender("")), e.worker(e.store, e.sender("")),
		e.worker(other, e.sender("")), e.worker(other, e.sender(""))}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, w := range workers {
		wg.Go(func() {
			sent, err := w.Flush(context.Background())
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += sent
			mu.Unlock()
		})
	}
	wg.Wait()
	msgs := e.server.received()
	if total != 12 || len(msgs) != 12 {
		t.Fatalf("sent %d, server got %d, want 12", total, len(msgs))
	}
	seen := map[string]int{}
	for _, m := range msgs {
		seen[m.To[0]]++
	}
	for _, to := range want {
		if seen[to] != 1 {
			t.Fatalf("%s got %d messages", to, seen[to])
		}
	}
	for _, w := range workers {
		flush(t, w, 0)
	}
}

// failingSender refuses every message.
type failingSender struct {
	mu    sync.Mutex
	calls int
}

func (f *failingSender) Send(context.Context, Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return errors.New("421 4.3.2 service not available")
}

func TestBackoffThenGiveUpAfter24Attempts(t *testing.T) {
	e := newEnv(t)
	a := e.owner("Doomed", "owner@doomed.example", "en")
	n := e.budgetReached(a, e.token(a, "x", 50_000, "doomed.example"), 50_000)
	f := &failingSender{}
	w := e.worker(e.store, f)
	start := e.clock.Now()
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		flush(t, w, 0)
		got := e.notice(a.ID, n.ID)
		if got.Attempts != attempt {
			t.Fatalf("attempt %d: stored attempts %d", attempt, got.Attempts)
		}
		if attempt < MaxAttempts {
			if got.Status != store.NoticePending || !got.NextAttemptAt.Equal(e.clock.Now().Add(Backoff(attempt))) {
				t.Fatalf("attempt %d: %+v", attempt, got)
			}
			e.clock.Advance(Backoff(attempt))
		} else if got.Status != store.NoticeFailed || !strings.Contains(got.LastError, "421") {
			t.Fatalf("after the last attempt: %+v", got)
		}
	}
	if f.calls != MaxAttempts {
		t.Fatalf("%d sends, want %d", f.calls, MaxAttempts)
	}
	e.clock.Advance(24 * time.Hour)
	flush(t, w, 0)
	if f.calls != MaxAttempts {
		t.Fatal("a given-up notice was tried again")
	}
	if span := e.clock.Now().Add(-24 * time.Hour).Sub(start); span < 17*time.Hour || span > 19*time.Hour {
		t.Fatalf("the attempts spanned %v", span)
	}
	if !strings.Contains(e.logs.String(), "notice given up") {
		t.Fatalf("giving up was not logged:\n%s", e.logs)
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute,
		32 * time.Minute, time.Hour, time.Hour, time.Hour}
	for i, w := range want {
		if got := Backoff(i + 1); got != w {
			t.Fatalf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if Backoff(0) != time.Minute || Backoff(1000) != time.Hour {
		t.Fatal("Backoff out of range")
	}
}

func TestNoticesThatCanNeverBeSentFailAtOnce(t *testing.T) {
	e := newEnv(t)
	w := e.worker(e.store, e.sender(""))
	ctx := context.Background()

	noMail := e.owner("No mail", "", "en")
	n1 := e.budgetReached(noMail, e.token(noMail, "x", 50_000, "a.example"), 50_000)

	odd := e.owner("Odd", "owner@odd.example", "en")
	n2 := store.Notice{AccountID: odd.ID, Kind: "mystery", DedupeKey: "mystery:1", Payload: "{}"}
	if _, err := e.store.EnqueueNotice(ctx, &n2); err != nil {
		t.Fatal(err)
	}
	n3 := store.Notice{AccountID: odd.ID, Kind: store.NoticeBudgetReached, DedupeKey: "budget:999:2026-03-14",
		Payload: `{"token_id":999,"day":"2026-03-14","limit_micro":1,"spend_micro":1}`}
	if _, err := e.store.EnqueueNotice(ctx, &n3); err != nil {
		t.Fatal(err)
	}
	n4 := store.Notice{AccountID: odd.ID, Kind: store.NoticeBudgetReached, DedupeKey: "budget:broken", Payload: `{"token_id":`}
	if _, err := e.store.EnqueueNotice(ctx, &n4); err != nil {
		t.Fatal(err)
	}

	flush(t, w, 0)
	for _, c := range []struct {
		account, id int64
		reason      string
	}{
		{noMail.ID, n1.ID, "has no e-mail address"},
		{odd.ID, n2.ID, `unknown notice kind "mystery"`},
		{odd.ID, n3.ID, "embed token 999"},
		{odd.ID, n4.ID, "payload"},
	} {
		got := e.notice(c.account, c.id)
		if got.Status != store.NoticeFailed || got.Attempts != 1 || !strings.Contains(got.LastError, c.reason) {
			t.Fatalf("notice %d: %+v, want failed for good with %q", c.id, got, c.reason)
		}
	}
	if len(e.server.received()) != 0 {
		t.Fatal("something was sent")
	}
	logs := e.logs.String()
	if !strings.Contains(logs, "notice given up") || !strings.Contains(logs, "has no e-mail address") {
		t.Fatalf("not logged:\n%s", logs)
	}
}

func TestAuthenticatedDeliveryKeepsThePasswordOutOfLogs(t *testing.T) {
	e := newEnv(t)
	e.server.stop()
	authed := &testServer{t: t, user: "mailer", pass: secret}
	authed.start("")
	a := e.owner("Authed", "owner@authed.example", "en")
	n := e.budgetReached(a, e.token(a, "x", 50_000, "authed.example"), 50_000)

	wrong := e.worker(e.store, e.sender(authed.url("smtp", "mailer:"+strings.ReplaceAll(secret, "ä", "%C3%A4")+"-typo", "")))
	flush(t, wrong, 0)
	if got := e.notice(a.ID, n.ID); got.Attempts != 1 || strings.Contains(got.LastError, secret) {
		t.Fatalf("after a refused login: %+v", got)
	}
	e.clock.Advance(time.Minute)
	right := e.worker(e.store, e.sender(authed.url("smtp", "mailer:"+strings.ReplaceAll(secret, "ä", "%C3%A4"), "")))
	flush(t, right, 1)
	if msgs := authed.received(); len(msgs) != 1 || msgs[0].User != "mailer" {
		t.Fatalf("authenticated delivery: %+v", msgs)
	}
	if logs := e.logs.String(); strings.Contains(logs, "s3cr3t") || strings.Contains(logs, "P%C3%A4sswort") {
		t.Fatalf("the password is in the logs:\n%s", logs)
	}
}

func TestKickWakesRun(t *testing.T) {
	e := newEnv(t)
	a := e.owner("Kicked", "owner@kick.example", "en")
	tok := e.token(a, "x", 50_000, "kick.example")
	w := NewWorker(Deps{Store: e.store, Sender: e.sender(""), Now: e.clock.Now, Interval: time.Hour})
	waitFor := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for len(e.server.received()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("%d messages after 5 s, want %d", len(e.server.received()), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	e.budgetReached(a, tok, 50_000)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	waitFor(1) // Run's first pass comes at once

	// The next pass is an hour away: only Kick can bring the next notice out now.
	e.clock.Advance(24 * time.Hour)
	e.budgetReached(a, tok, 60_000)
	w.Kick()
	w.Kick() // coalesces; never blocks
	waitFor(2)

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop with its context")
	}
	if n := len(e.server.received()); n != 2 {
		t.Fatalf("%d messages, want 2", n)
	}
}

func TestNewWorkerNeedsStoreAndSender(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	NewWorker(Deps{})
}
