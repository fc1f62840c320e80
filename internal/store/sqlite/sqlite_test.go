package sqlite_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

func open(t *testing.T, dir string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, t.TempDir()) })
}

// Two stores on one data directory stand for `svc serve` and an operator command running at
// the same time: both write, neither fails, and each sees the other's writes.
func TestTwoProcessesShareTheFile(t *testing.T) {
	dir := t.TempDir()
	serve, cli := open(t, dir), open(t, dir)
	defer serve.Close()
	defer cli.Close()
	a, _ := storetest.NewAccount(t, serve, "Shared", 0)
	c, err := serve.OpenConversation(context.Background(), a.ID, "en")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			errs <- serve.SaveTurn(context.Background(), &store.Turn{AccountID: a.ID, ConversationID: c.ID, Lang: "en",
				User:   store.Message{Role: store.RoleUser, Body: fmt.Sprint(i)},
				Reply:  store.Message{Role: store.RoleAssistant, Body: "ok", Source: store.SourceCacheShared},
				Charge: store.Charge{EventType: store.EventCacheShared}})
		}
	}()
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			_, err := cli.AddBalance(context.Background(), a.ID, 1, "cli")
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := serve.GetAccount(context.Background(), a.ID)
	if err != nil || got.BalanceMicro != 100 {
		t.Fatalf("serve sees balance %d (%v), want 100", got.BalanceMicro, err)
	}
	msgs, _ := cli.Messages(context.Background(), a.ID, c.ID, 0, 1000)
	if len(msgs) != 200 {
		t.Fatalf("cli sees %d messages, want 200", len(msgs))
	}
}

func TestReopenKeepsDataAndMigrationsAreIdempotent(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	a, _ := storetest.NewAccount(t, s, "Persisted", 5)
	s.Close()
	s2 := open(t, dir)
	defer s2.Close()
	got, err := s2.GetAccount(context.Background(), a.ID)
	if err != nil || got.BalanceMicro != 5 {
		t.Fatalf("after reopen: %v %+v", err, got)
	}
	if err := s2.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}
