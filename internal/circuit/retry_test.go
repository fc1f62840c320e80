package circuit_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"svc/internal/circuit"
	"svc/internal/circuit/circuittest"
)

// failure is a Retryable error with a fixed answer.
type failure struct {
	retry bool
	after time.Duration
}

func (f *failure) Error() string                    { return "failure" }
func (f *failure) RetryHint() (bool, time.Duration) { return f.retry, f.after }
func script(errs ...error) func(context.Context) (int, error) {
	n := 0
	return func(context.Context) (int, error) {
		n++
		if n <= len(errs) {
			return 0, errs[n-1]
		}
		return n, nil
	}
}

func TestDo(t *testing.T) {
	t.Parallel()
	busy := &failure{retry: true}
	tests := []struct {
		name      string
		retries   int
		errs      []error
		wantValue int   // the attempt that succeeded; 0 for failure
		wantErr   error // nil for success
		wantSleep []time.Duration
	}{
		{"first try", 2, nil, 1, nil, nil},
		{"backoff then success", 2, []error{busy, busy}, 3, nil, []time.Duration{500 * time.Millisecond, time.Second}},
		{"Retry-After honoured", 2, []error{&failure{retry: true, after: 3 * time.Second}}, 2, nil, []time.Duration{3 * time.Second}},
		{"retries run out", 1, []error{busy, busy, busy}, 0, busy, []time.Duration{500 * time.Millisecond}},
		{"not retryable", 3, []error{&failure{}}, 0, &failure{}, nil},
		{"plain errors are not retried", 3, []error{errors.New("plain")}, 0, errors.New("plain"), nil},
		{"no retries", 0, []error{busy}, 0, busy, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clk := circuittest.NewClock()
			v, err := circuit.Do(context.Background(), circuit.Retry{MaxRetries: tc.retries, Clock: clk.Clock()}, script(tc.errs...))
			if (err == nil) != (tc.wantErr == nil) || (err != nil && err.Error() != tc.wantErr.Error()) || v != tc.wantValue {
				t.Errorf("got %d, %v; want %d, %v", v, err, tc.wantValue, tc.wantErr)
			}
			if got := clk.Slept(); !slices.Equal(got, tc.wantSleep) {
				t.Errorf("slept %v, want %v", got, tc.wantSleep)
			}
		})
	}
}

func TestDoStopsBeforeWaitingPastTheDeadline(t *testing.T) {
	t.Parallel()
	clk := circuittest.NewClock()
	ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(2*time.Second))
	defer cancel()
	slow := &failure{retry: true, after: 20 * time.Second}
	_, err := circuit.Do(ctx, circuit.Retry{MaxRetries: 3, Clock: clk.Clock()}, script(slow))
	if err != slow || len(clk.Slept()) != 0 {
		t.Errorf("err %v after sleeping %v, want the call's own error at once", err, clk.Slept())
	}
}

func TestDoReportsTheCallerStoppingDuringAWait(t *testing.T) {
	t.Parallel()
	stopped := errors.New("stopped")
	ctx, cancel := context.WithCancel(context.Background())
	clk := circuit.Clock{Now: time.Now, Jitter: func(d time.Duration) time.Duration { return d },
		Sleep: func(ctx context.Context, _ time.Duration) error { cancel(); return ctx.Err() }}
	r := circuit.Retry{MaxRetries: 3, Clock: clk, Stopped: func(ctx context.Context) error {
		return errors.Join(stopped, ctx.Err())
	}}
	_, err := circuit.Do(ctx, r, script(&failure{retry: true}))
	if !errors.Is(err, stopped) || !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want Stopped's error", err)
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	t.Parallel()
	r := circuit.Retry{Clock: circuittest.NewClock().Clock()}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second}
	for attempt, w := range want {
		if got := r.Wait(attempt, 0); got != w {
			t.Errorf("attempt %d: wait %v, want %v", attempt, got, w)
		}
	}
	if got := r.Wait(0, 2*time.Minute); got != 30*time.Second {
		t.Errorf("Retry-After of 2m waited %v, want the 30s cap", got)
	}
	if got := r.Wait(5, 3*time.Second); got != 3*time.Second {
		t.Errorf("Retry-After of 3s waited %v", got)
	}
	real := circuit.RealClock()
	for range 100 {
		if got := real.Jitter(time.Second); got < 0 || got > time.Second {
			t.Fatalf("real jitter %v out of [0, 1s]", got)
		}
	}
}
