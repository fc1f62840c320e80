package account_test

import (
	"context"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

func newService(t *testing.T) *account.Service {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return account.New(st, nil)
}

func ptr[T any](v T) *T { return &v }

func TestCreateDefaultsAndKeyForm(t *testing.T) {
	s := newService(t)
	a, key, err := s.Create(context.Background(), account.Settings{Name: ptr("Acme")})
	if err != nil {
		t.Fatal(err)
	}
	if !account.WellFormed(key) || !strings.HasPrefix(key, "svc_pk_") || len(key) != 39 {
		t.Fatalf("key form: %q", key)
	}
	if a.Plan != "starter" || a.Lang != "en" || a.BalanceMicro != 0 || a.SendRatePerMin != 15 || a.DailyAnswers != 200 ||
		!a.SalesMode || a.TonePreset != "professional" || a.InputRate != 3_000_000 || a.OutputRate != 25_000_000 {
		t.Fatalf("defaults: %+v", a)
	}
	for plan, want := range map[string]int{"growth": 1000, "scale": 5000, "custom": 0} {
		b, _, err := s.Create(context.Background(), account.Settings{Name: ptr(plan), Plan: ptr(plan)})
		if err != nil || b.DailyAnswers != want {
			t.Errorf("plan %s: daily %d (%v)", plan, b.DailyAnswers, err)
		}
	}
}

func TestValidation(t *testing.T) {
	s := newService(t)
	tests := []account.Settings{
		{},
		{Name: ptr("  ")},
		{Name: ptr("x"), Plan: ptr("gold")},
		{Name: ptr("x"), Lang: ptr("fr")},
		{Name: ptr("x"), SendRatePerMin: ptr(0)},
		{Name: ptr("x"), DailyAnswers: ptr(-1)},
		{Name: ptr("x"), TonePreset: ptr("grumpy")},
		{Name: ptr("x"), Email: ptr("not-an-address")},
		{Name: ptr("x"), BalanceMicro: ptr(int64(-5))},
		{Name: ptr("x"), ToneCustom: ptr(strings.Repeat("a", 501))},
	}
	for i, set := range tests {
		if _, _, err := s.Create(context.Background(), set); errs.KindOf(err) != errs.BadRequest {
			t.Errorf("case %d: %v, want a bad request", i, err)
		}
	}
}

func TestAuthenticateAndRotate(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	a, key, _ := s.Create(ctx, account.Settings{Name: ptr("Acme")})
	c, err := s.Authenticate(ctx, key)
	if err != nil || c.Account.ID != a.ID || c.Key.Status != store.KeyActive || c.Key.LastUsedAt.IsZero() {
		t.Fatalf("authenticate: %v %+v", err, c)
	}
	for _, bad := range []string{"", "svc_pk_", key[:len(key)-1], strings.ToUpper(key), key[:len(key)-1] + "0", "Bearer " + key} {
		if bad == key {
			continue
		}
		if _, err := s.Authenticate(ctx, bad); errs.KindOf(err) != errs.Unauthorized {
			t.Errorf("%q: %v", bad, err)
		}
	}
	nk, err := s.RotateKey(ctx, a.ID)
	if err != nil || nk == key {
		t.Fatalf("rotate: %v", err)
	}
	if _, err := s.Authenticate(ctx, key); errs.KindOf(err) != errs.Unauthorized {
		t.Fatalf("old key still works: %v", err)
	}
	if _, err := s.Authenticate(ctx, nk); err != nil {
		t.Fatalf("new key: %v", err)
	}
	if _, err := s.RotateKey(ctx, 999); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("rotate unknown: %v", err)
	}
}

func TestUpdateAndBalance(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	a, _, _ := s.Create(ctx, account.Settings{Name: ptr("Acme")})
	got, err := s.Update(ctx, a.ID, account.Settings{Plan: ptr("growth"), SalesMode: ptr(false), TonePreset: ptr("warm")})
	if err != nil || got.DailyAnswers != 1000 || got.SalesMode || got.TonePreset != "warm" {
		t.Fatalf("update: %v %+v", err, got)
	}
	if _, err := s.Update(ctx, a.ID, account.Settings{BalanceMicro: ptr(int64(1))}); errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("balance through update: %v", err)
	}
	bal, err := s.AddBalance(ctx, a.ID, 2_500_000, "top-up")
	if err != nil || bal != 2_500_000 {
		t.Fatalf("add: %d %v", bal, err)
	}
	if _, err := s.AddBalance(ctx, a.ID, -3_000_000, "fix"); errs.KindOf(err) != errs.BadRequest {
		t.Fatalf("overdraw: %v", err)
	}
	if _, err := s.AddBalance(ctx, 404, 1, ""); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown account: %v", err)
	}
}
