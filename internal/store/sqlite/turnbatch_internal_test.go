package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

// A panic while a batch is written fails that batch's turns with an error and leaves the
// writer serving the next ones.
func TestTurnWriterSurvivesPanic(t *testing.T) {
	t.Parallel()
	s := openTemp(t)
	// A turn without a context (no caller makes one) panics in writeTurns: the bug under test.
	r := &turnReq{t: &store.Turn{}, done: make(chan error, 1)}
	errs := s.turns.write(s, []*turnReq{r})
	if len(errs) != 1 || errs[0] == nil || !strings.Contains(errs[0].Error(), "save turn") {
		t.Fatalf("errors %v, want the panic as the turn's error", errs)
	}
	a := store.Account{Name: "After", Plan: store.PlanStarter, Lang: "en", TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, InputRate: 1, OutputRate: 1}
	if err := s.CreateAccount(context.Background(), &a, &store.APIKey{Prefix: "svc_pk_00000000", Hash: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	c, err := s.OpenConversation(context.Background(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	next := &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en",
		User:  store.Message{Role: store.RoleUser, Body: "Hi", Lang: "en"},
		Reply: store.Message{Role: store.RoleAssistant, Body: "Hello.", Source: store.SourceCacheShared, Lang: "en"}}
	if err := s.SaveTurn(context.Background(), next); err != nil {
		t.Fatalf("a turn after the panic: %v", err)
	}
}

// A free turn is written without a savepoint; when one fails all the same (here its
// conversation does not exist), the batch is written again with savepoints, so that the
// others commit once, a charged turn's money moves once, and only the failing turn fails.
func TestTurnBatchRetriesAFailedFreeTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	a := store.Account{Name: "Retry", Plan: store.PlanStarter, Lang: "en", TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, InputRate: 1, OutputRate: 1, BalanceMicro: 1_000_000}
	if err := s.CreateAccount(ctx, &a, &store.APIKey{Prefix: "svc_pk_00000001", Hash: []byte{1}}); err != nil {
		t.Fatal(err)
	}
	c, err := s.OpenConversation(ctx, a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	turn := func(conv int64, body string, charge store.Charge) *turnReq {
		tr := &store.Turn{AccountID: a.ID, ConversationID: conv, Lang: "en", Charge: charge,
			User:  store.Message{Role: store.RoleUser, Body: body, Lang: "en"},
			Reply: store.Message{Role: store.RoleAssistant, Body: "Reply to " + body, Source: store.SourceCacheShared, Lang: "en"}}
		return &turnReq{ctx: ctx, t: tr, charges: []store.Charge{charge}, done: make(chan error, 1)}
	}
	free := store.Charge{EventType: store.EventCacheShared}
	paid := store.Charge{EventType: store.EventAnswer, AmountMicro: 1_500}
	batch := []*turnReq{turn(c.ID, "first", free), turn(c.ID+1000, "orphan", free), turn(c.ID, "paid", paid),
		turn(c.ID, "last", free)}
	errs := s.turns.write(s, batch)
	if len(errs) != 4 || errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != nil {
		t.Fatalf("errors %v, want only the orphan turn's", errs)
	}
	if got := batch[2].charges[0]; got.AmountMicro != 1_500 || got.EventID == 0 {
		t.Fatalf("paid turn's settled charge %+v", got)
	}
	msgs, err := s.LastMessages(ctx, a.ID, c.ID, 10)
	if err != nil || len(msgs) != 6 {
		t.Fatalf("messages %v %d, want the three good turns once", err, len(msgs))
	}
	after, err := s.GetAccount(ctx, a.ID)
	if err != nil || after.BalanceMicro != 1_000_000-1_500 {
		t.Fatalf("balance %v %d, want one charge", err, after.BalanceMicro)
	}
	sum, err := s.UsageSummary(ctx, a.ID, time.Time{}, 10)
	if err != nil || sum.AllTimeCount != 3 || sum.AllTimeCost != 1_500 {
		t.Fatalf("usage %v %+v, want three events", err, sum)
	}
}

// Free turns of one batch are written together, their messages and usage events by a few
// multi-row INSERTs (11 turns: chunks of 16, 4 and 2 messages, of 8, 2 and 1 events): every
// turn's question precedes its reply, ids follow the batch's order, and each event names its
// own turn's reply.
func TestTurnBatchWritesFreeTurnsTogether(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	a := store.Account{Name: "Free", Plan: store.PlanStarter, Lang: "en", TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, InputRate: 1, OutputRate: 1, BalanceMicro: 1_000_000}
	if err := s.CreateAccount(ctx, &a, &store.APIKey{Prefix: "svc_pk_00000002", Hash: []byte{2}}); err != nil {
		t.Fatal(err)
	}
	c, err := s.OpenConversation(ctx, a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	const n = 11
	batch := make([]*turnReq, n)
	for i := range batch {
		body := fmt.Sprintf("question %d", i)
		charge := store.Charge{EventType: store.EventCacheTenant}
		batch[i] = &turnReq{ctx: ctx, charges: []store.Charge{charge}, done: make(chan error, 1), t: &store.Turn{
			AccountID: a.ID, ConversationID: c.ID, Lang: "en", Charge: charge,
			User:  store.Message{Role: store.RoleUser, Body: body, Lang: "en"},
			Reply: store.Message{Role: store.RoleAssistant, Body: "Reply to " + body, Source: store.SourceCacheTenant, Lang: "en"}}}
	}
	for i, err := range s.turns.write(s, batch) {
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	msgs, err := s.LastMessages(ctx, a.ID, c.ID, 2*n)
	if err != nil || len(msgs) != 2*n {
		t.Fatalf("messages %v %d, want %d", err, len(msgs), 2*n)
	}
	byID := map[int64]store.Message{}
	for _, m := range msgs {
		byID[m.ID] = m
	}
	var prev int64
	for i, r := range batch {
		u, rep := r.t.User, r.t.Reply
		if u.ID <= prev || rep.ID != u.ID+1 {
			t.Fatalf("turn %d: ids %d, %d after %d", i, u.ID, rep.ID, prev)
		}
		prev = rep.ID
		if byID[u.ID].Body != u.Body || byID[rep.ID].Body != rep.Body {
			t.Fatalf("turn %d: stored %q / %q", i, byID[u.ID].Body, byID[rep.ID].Body)
		}
	}
	sum, err := s.UsageSummary(ctx, a.ID, time.Time{}, 2*n)
	if err != nil || sum.AllTimeCount != n || sum.AllTimeCost != 0 || len(sum.Recent) != n {
		t.Fatalf("usage %v %+v, want %d free events", err, sum, n)
	}
	events := map[int64]store.UsageEvent{}
	for _, e := range sum.Recent {
		events[e.ID] = e
	}
	for i, r := range batch {
		c := r.charges[0]
		if e, ok := events[c.EventID]; !ok || e.MessageID != r.t.Reply.ID || e.EventType != store.EventCacheTenant {
			t.Fatalf("turn %d: event %d is %+v, want one naming reply %d", i, c.EventID, e, r.t.Reply.ID)
		}
	}
}
