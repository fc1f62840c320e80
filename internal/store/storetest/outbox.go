package storetest

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// outboxTests cover the Outbox.
var outboxTests = []suiteTest{
	{"NoticeDedupe", testNoticeDedupe},
	{"NoticeRetryThenSent", testNoticeRetryThenSent},
	{"NoticeFinalFailure", testNoticeFinalFailure},
	{"NoticesTenantScoped", testNoticesTenantScoped},
	{"ConcurrentClaimsTakeEachNoticeOnce", testConcurrentClaims},
}

var outboxClockedTests = []clockedTest{
	{"NoticeClaimLease", testNoticeClaimLease},
}

func budgetNotice(accountID, tokenID int64, day time.Time, limit, spend int64) store.Notice {
	since := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	return store.BudgetNotice(accountID, store.TokenBudget{TokenID: tokenID, LimitMicro: limit, Since: since}, spend)
}

func enqueue(t *testing.T, s store.Store, n store.Notice) store.Notice {
	t.Helper()
	queued, err := s.EnqueueNotice(ctx(), &n)
	if err != nil || !queued {
		t.Fatalf("enqueue %s: queued %v, %v", n.DedupeKey, queued, err)
	}
	return n
}

func onlyNotice(t *testing.T, s store.Store, accountID int64) store.Notice {
	t.Helper()
	ns, err := s.Notices(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 {
		t.Fatalf("%d notices, want 1: %+v", len(ns), ns)
	}
	return ns[0]
}

func claimIDs(ns []store.Notice) []int64 {
	ids := make([]int64, len(ns))
	for i, n := range ns {
		ids[i] = n.ID
	}
	return ids
}

func testNoticeDedupe(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Outboxer", 0)
	before := time.Now().Add(-time.Second)
	n := budgetNotice(a.ID, 7, time.Now().UTC(), 50_000, 51_200)
	n = enqueue(t, s, n)
	if n.ID == 0 || n.Status != store.NoticePending || n.Attempts != 0 || n.CreatedAt.Before(before) ||
		n.NextAttemptAt.Before(before) {
		t.Fatalf("enqueued notice not filled: %+v", n)
	}
	again := budgetNotice(a.ID, 7, time.Now().UTC(), 50_000, 99_999)
	queued, err := s.EnqueueNotice(ctx(), &again)
	if err != nil || queued || again.ID != 0 {
		t.Fatalf("same dedupe key queued again: %v %v %+v", queued, err, again)
	}
	// Another token, or the same token another day, is another notice.
	other := enqueue(t, s, budgetNotice(a.ID, 8, time.Now().UTC(), 50_000, 50_000))
	tomorrow := enqueue(t, s, budgetNotice(a.ID, 7, time.Now().UTC().AddDate(0, 0, 1), 50_000, 50_000))
	ns, err := s.Notices(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 3 || ns[0].ID != tomorrow.ID || ns[1].ID != other.ID || ns[2].ID != n.ID {
		t.Fatalf("notices, newest first: %+v", ns)
	}
	got := ns[2]
	if got.Kind != store.NoticeBudgetReached || got.DedupeKey != n.DedupeKey || got.Status != store.NoticePending ||
		got.AccountID != a.ID || !got.SentAt.IsZero() || got.LastError != "" || got.CreatedAt.Location() != time.UTC {
		t.Fatalf("round trip: %+v", got)
	}
	var p store.BudgetPayload
	if err := json.Unmarshal([]byte(got.Payload), &p); err != nil || p.TokenID != 7 || p.LimitMicro != 50_000 ||
		p.SpendMicro != 51_200 || p.Day != time.Now().UTC().Format("2006-01-02") {
		t.Fatalf("payload %q: %v %+v (the first notice's payload must be kept)", got.Payload, err, p)
	}
	for _, bad := range []store.Notice{
		{AccountID: a.ID, Kind: store.NoticeBudgetReached},
		{AccountID: a.ID, DedupeKey: "k"},
		{Kind: store.NoticeBudgetReached, DedupeKey: "k"},
	} {
		if queued, err := s.EnqueueNotice(ctx(), &bad); err == nil || queued {
			t.Fatalf("incomplete notice %+v accepted", bad)
		}
	}
}

func testNoticeClaimLease(t *testing.T, s store.Store, clock *Clock) {
	a, _ := NewAccount(t, s, "Leaser", 0)
	first := enqueue(t, s, budgetNotice(a.ID, 1, clock.Now(), 10, 10))
	clock.Advance(time.Second)
	second := enqueue(t, s, budgetNotice(a.ID, 2, clock.Now(), 10, 10))
	clock.Advance(time.Second)
	const lease = 2 * time.Minute

	now := clock.Now()
	got, err := s.ClaimNotices(ctx(), now, lease, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != first.ID || got[0].Status != store.NoticePending {
		t.Fatalf("claim with limit 1 took %+v, want the oldest (%d)", got, first.ID)
	}
	if want := now.Add(lease).Truncate(time.Microsecond); !got[0].NextAttemptAt.Equal(want) {
		t.Fatalf("claimed notice due at %v, want now+lease %v", got[0].NextAttemptAt, want)
	}
	if stored := onlyNoticeByID(t, s, a.ID, first.ID); !stored.NextAttemptAt.Equal(got[0].NextAttemptAt) {
		t.Fatalf("lease not stored: %v vs %v", stored.NextAttemptAt, got[0].NextAttemptAt)
	}
	got, err = s.ClaimNotices(ctx(), clock.Now(), lease, 10)
	if err != nil || len(got) != 1 || got[0].ID != second.ID {
		t.Fatalf("second claim got %+v (%v), want only the unleased notice %d", got, err, second.ID)
	}
	clock.Advance(lease - 10*time.Second)
	if got, err := s.ClaimNotices(ctx(), clock.Now(), lease, 10); err != nil || len(got) != 0 {
		t.Fatalf("claim within the lease got %v (%v)", claimIDs(got), err)
	}
	clock.Advance(11 * time.Second)
	got, err = s.ClaimNotices(ctx(), clock.Now(), lease, 10)
	if err != nil || len(got) != 2 || got[0].ID != first.ID || got[1].ID != second.ID {
		t.Fatalf("claim after the lease got %v (%v), want both, oldest first", claimIDs(got), err)
	}
	if got, _ := s.ClaimNotices(ctx(), clock.Now(), lease, 10); len(got) != 0 {
		t.Fatalf("claimed again at once: %v", claimIDs(got))
	}
	// A notice not yet due (retried later) is not claimed early.
	if err := s.NoticeFailed(ctx(), first.ID, "451 try later", clock.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	clock.Advance(lease + time.Second)
	got, _ = s.ClaimNotices(ctx(), clock.Now(), lease, 10)
	if len(got) != 1 || got[0].ID != second.ID {
		t.Fatalf("claim took %v, want only %d (the other is due in an hour)", claimIDs(got), second.ID)
	}
	if got, err := s.ClaimNotices(ctx(), clock.Now(), lease, 0); err != nil || len(got) != 0 {
		t.Fatalf("limit 0: %v %v", got, err)
	}
}

func onlyNoticeByID(t *testing.T, s store.Store, accountID, id int64) store.Notice {
	t.Helper()
	ns, err := s.Notices(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range ns {
		if n.ID == id {
			return n
		}
	}
	t.Fatalf("notice %d not listed", id)
	return store.Notice{}
}

func testNoticeRetryThenSent(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Retrier", 0)
	n := enqueue(t, s, budgetNotice(a.ID, 3, time.Now().UTC(), 10, 10))
	now := time.Now()
	if got, err := s.ClaimNotices(ctx(), now, time.Minute, 10); err != nil || len(got) != 1 {
		t.Fatalf("claim: %v %v", got, err)
	}
	next := now.Add(time.Minute)
	if err := s.NoticeFailed(ctx(), n.ID, "dial tcp: connection refused", next, false); err != nil {
		t.Fatal(err)
	}
	got := onlyNotice(t, s, a.ID)
	if got.Status != store.NoticePending || got.Attempts != 1 || got.LastError != "dial tcp: connection refused" ||
		!got.NextAttemptAt.Equal(next.Truncate(time.Microsecond)) {
		t.Fatalf("after a failed attempt: %+v", got)
	}
	if got, _ := s.ClaimNotices(ctx(), next.Add(-time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed before the retry time: %v", claimIDs(got))
	}
	claimed, err := s.ClaimNotices(ctx(), next, time.Minute, 10)
	if err != nil || len(claimed) != 1 || claimed[0].Attempts != 1 || claimed[0].LastError == "" {
		t.Fatalf("retry claim: %+v %v", claimed, err)
	}
	if err := s.NoticeFailed(ctx(), n.ID, "451 greylisted", next.Add(2*time.Minute), false); err != nil {
		t.Fatal(err)
	}
	claimed, _ = s.ClaimNotices(ctx(), next.Add(2*time.Minute), time.Minute, 10)
	if len(claimed) != 1 || claimed[0].Attempts != 2 || claimed[0].LastError != "451 greylisted" {
		t.Fatalf("second retry: %+v", claimed)
	}
	sentAt := next.Add(2*time.Minute + time.Second)
	if err := s.NoticeSent(ctx(), n.ID, sentAt, false); err != nil {
		t.Fatal(err)
	}
	got = onlyNotice(t, s, a.ID)
	if got.Status != store.NoticeSent || !got.SentAt.Equal(sentAt.Truncate(time.Microsecond)) || got.Attempts != 2 {
		t.Fatalf("after sending: %+v", got)
	}
	if got.Payload != n.Payload {
		t.Fatalf("payload changed without clearPayload: %q", got.Payload)
	}
	// Sent again with clearPayload (a link's mail): the payload is gone, the first send time kept.
	if err := s.NoticeSent(ctx(), n.ID, sentAt.Add(time.Hour), true); err != nil {
		t.Fatal(err)
	}
	if got = onlyNotice(t, s, a.ID); got.Payload != "{}" || !got.SentAt.Equal(sentAt.Truncate(time.Microsecond)) {
		t.Fatalf("after clearing: %+v", got)
	}
	if got, _ := s.ClaimNotices(ctx(), sentAt.Add(24*time.Hour), time.Minute, 10); len(got) != 0 {
		t.Fatalf("a sent notice was claimed: %v", claimIDs(got))
	}
	// A late failure report (a worker whose lease ran out) does not undo the send.
	if err := s.NoticeFailed(ctx(), n.ID, "timeout", sentAt.Add(time.Minute), true); err != nil {
		t.Fatal(err)
	}
	if err := s.NoticeSent(ctx(), n.ID, sentAt.Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if got := onlyNotice(t, s, a.ID); got.Status != store.NoticeSent || got.Attempts != 2 ||
		!got.SentAt.Equal(sentAt.Truncate(time.Microsecond)) {
		t.Fatalf("sent notice changed by a late report: %+v", got)
	}
	if err := s.NoticeSent(ctx(), n.ID+100, sentAt, false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("sent of a missing notice: %v", err)
	}
	if err := s.NoticeFailed(ctx(), n.ID+100, "x", sentAt, false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failure of a missing notice: %v", err)
	}
}

func testNoticeFinalFailure(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Giver-up", 0)
	n := enqueue(t, s, budgetNotice(a.ID, 4, time.Now().UTC(), 10, 10))
	now := time.Now()
	if got, _ := s.ClaimNotices(ctx(), now, time.Minute, 10); len(got) != 1 {
		t.Fatalf("claim: %+v", got)
	}
	if err := s.NoticeFailed(ctx(), n.ID, "account has no e-mail address", now, true); err != nil {
		t.Fatal(err)
	}
	got := onlyNotice(t, s, a.ID)
	if got.Status != store.NoticeFailed || got.Attempts != 1 || got.LastError != "account has no e-mail address" ||
		!got.SentAt.IsZero() {
		t.Fatalf("after the final failure: %+v", got)
	}
	if got, _ := s.ClaimNotices(ctx(), now.Add(48*time.Hour), time.Minute, 10); len(got) != 0 {
		t.Fatalf("a failed notice was claimed: %v", claimIDs(got))
	}
	// Its key stays taken: the same notice is not queued again.
	again := budgetNotice(a.ID, 4, time.Now().UTC(), 10, 10)
	if queued, err := s.EnqueueNotice(ctx(), &again); err != nil || queued {
		t.Fatalf("failed notice queued again: %v %v", queued, err)
	}
}

func testNoticesTenantScoped(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Tenant A", 0)
	b, _ := NewAccount(t, s, "Tenant B", 0)
	na := enqueue(t, s, budgetNotice(a.ID, 1, time.Now().UTC(), 10, 10))
	nb := enqueue(t, s, budgetNotice(b.ID, 2, time.Now().UTC(), 10, 10))
	if got := onlyNotice(t, s, a.ID); got.ID != na.ID {
		t.Fatalf("A sees %+v", got)
	}
	if got := onlyNotice(t, s, b.ID); got.ID != nb.ID {
		t.Fatalf("B sees %+v", got)
	}
	if ns, err := s.Notices(ctx(), b.ID+100); err != nil || len(ns) != 0 {
		t.Fatalf("unknown account sees %+v %v", ns, err)
	}
}

// Workers claiming at the same moment never take the same notice.
func testConcurrentClaims(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Crowded", 0)
	const notices, workers = 30, 6
	for i := range notices {
		enqueue(t, s, budgetNotice(a.ID, int64(i+1), time.Now().UTC(), 10, 10))
	}
	now := time.Now()
	var mu sync.Mutex
	seen := map[int64]int{}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			for range notices { // bounded, should a claim not lease what it returns
				got, err := s.ClaimNotices(ctx(), now, time.Minute, 4)
				if err != nil {
					errs <- err
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, n := range got {
					seen[n.ID]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(seen) != notices {
		t.Fatalf("%d notices claimed, want %d", len(seen), notices)
	}
	if got, _ := s.ClaimNotices(ctx(), now, time.Minute, 100); len(got) != 0 {
		t.Fatalf("claimed again within the lease: %v", claimIDs(got))
	}
	for id, k := range seen {
		if k != 1 {
			t.Fatalf("notice %d claimed %d times", id, k)
		}
	}
}
