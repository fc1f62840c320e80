package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/store"
)

// WriteLoad writes to every account through s, as `svc serve` would, until the returned stop
// is called: top-ups, answers charged in a conversation (SaveTurn), and reserved calls settled
// through ChargeUsage. It returns once the writers have made some progress, so a backup taken
// next runs under load; stop ends the writers and waits for them.
func WriteLoad(t *testing.T, s store.Store, accounts []int64) (stop func()) {
	t.Helper()
	ctx := context.Background()
	done := make(chan struct{})
	var writes atomic.Int64
	var wg sync.WaitGroup
	stop = func() {
		close(done)
		wg.Wait()
	}
	for _, id := range accounts {
		c, err := s.OpenConversation(ctx, id, "en")
		if err != nil {
			stop()
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				var err error
				switch n % 3 {
				case 0:
					_, err = s.AddBalance(ctx, id, 2_000, "balance add")
				case 1:
					err = s.SaveTurn(ctx, &store.Turn{AccountID: id, ConversationID: c.ID, Lang: "en",
						User:   store.Message{Role: store.RoleUser, Body: fmt.Sprintf("question %d", n), Lang: "en"},
						Reply:  store.Message{Role: store.RoleAssistant, Body: "answer", Source: store.SourceAI, Lang: "en"},
						Charge: store.Charge{EventType: store.EventAnswer, AmountMicro: 1_100, InputTokens: 40, OutputTokens: 9}})
				case 2:
					var r store.Reservation
					if r, err = s.Reserve(ctx, id, 900, time.Hour, nil); err == nil {
						ch := store.Charge{EventType: "intelligence", AmountMicro: 800}
						_, err = s.ChargeUsage(ctx, id, &ch, r.ID)
					}
				}
				if err != nil {
					t.Errorf("write to account %d: %v", id, err)
					return
				}
				writes.Add(1)
			}
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); writes.Load() < 30; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			stop()
			t.Fatal("writers made no progress")
		}
	}
	return stop
}
