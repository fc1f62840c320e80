package sqlite

import (
	"context"
	"strings"
	"testing"

	"svc/internal/store"
)

// A panic while a batch is written fails that batch's turns with an error and leaves the
// writer serving the next ones.
func TestTurnWriterSurvivesPanic(t *testing.T) {
	t.Parallel()
	s, err := Open(context.Background(), t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
