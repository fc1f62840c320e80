package circuit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"svc/internal/circuit"
	"svc/internal/circuit/circuittest"
)

var errRefused = errors.New("refused")

// through calls b with a call returning err, and reports whether the call ran.
func through(ctx context.Context, b *circuit.Breaker, err error) (ran bool, wait time.Duration) {
	_, got := circuit.Call(ctx, b, func(context.Context) (int, error) { ran = true; return 0, err },
		func(w time.Duration) error { wait = w; return errRefused })
	if !ran && got != errRefused {
		panic("refused without the refusal error")
	}
	return ran, wait
}

func TestBreakerOpensHalfOpensAndCloses(t *testing.T) {
	t.Parallel()
	clk := circuittest.NewClock()
	b := circuit.NewBreaker(3, time.Minute, clk.Now)
	ctx := context.Background()
	down := &failure{retry: true}
	for i := range 3 {
		if ran, _ := through(ctx, b, down); !ran {
			t.Fatalf("call %d refused before the threshold", i)
		}
	}
	if ran, wait := through(ctx, b, nil); ran || wait != time.Minute {
		t.Fatalf("open breaker: ran %v, wait %v; want refused with a minute to wait", ran, wait)
	}
	clk.Advance(30 * time.Second)
	if _, wait := through(ctx, b, nil); wait != 30*time.Second {
		t.Errorf("wait %v half-way through the cooldown", wait)
	}
	clk.Advance(30 * time.Second)
	// The probe fails: open again for a full cooldown.
	if ran, _ := through(ctx, b, down); !ran {
		t.Fatal("no probe after the cooldown")
	}
	if ran, wait := through(ctx, b, nil); ran || wait != time.Minute {
		t.Fatalf("after a failed probe: ran %v, wait %v", ran, wait)
	}
	clk.Advance(time.Minute)
	if ran, _ := through(ctx, b, nil); !ran {
		t.Fatal("no probe after the second cooldown")
	}
	for i := range 5 {
		if ran, _ := through(ctx, b, nil); !ran {
			t.Fatalf("closed breaker refused call %d", i)
		}
	}
}

func TestBreakerCountsOnlyHealthFailures(t *testing.T) {
	t.Parallel()
	b := circuit.NewBreaker(2, time.Minute, circuittest.NewClock().Now)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		ctx context.Context
		err error
	}{
		{context.Background(), &failure{}},          // a refused request
		{context.Background(), errors.New("plain")}, // says nothing of health
		{canceled, &failure{retry: true}},           // the caller gave up
		{context.Background(), &failure{retry: true}},
		{context.Background(), nil}, // a success resets the count
		{context.Background(), &failure{retry: true}},
	}
	for i, tc := range tests {
		if ran, _ := through(tc.ctx, b, tc.err); !ran {
			t.Fatalf("call %d refused: only one health failure in a row so far", i)
		}
	}
}
