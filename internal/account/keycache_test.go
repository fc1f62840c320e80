package account_test

import (
	"context"
	"testing"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/store/sqlite"
)

// TestRememberedKeysStayExact: a server remembers the key and account it authenticated, and
// still sees at once what another process or replica (a second Service on the same data)
// changes: a rotation, a deleted account, new settings, money.
func TestRememberedKeysStayExact(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	server, other := account.New(st, nil), account.New(st, nil)
	a, key, err := other.Create(ctx, account.Settings{Name: ptr("Acme")})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second is answered from what the first remembered
		if c, err := server.Authenticate(ctx, key); err != nil || c.Account.ID != a.ID {
			t.Fatalf("authenticate: %v %+v", err, c)
		}
	}

	if _, err := other.Update(ctx, a.ID, account.Settings{TonePreset: ptr("warm"), SendRatePerMin: ptr(40)}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.AddBalance(ctx, a.ID, 3_000_000, "top-up"); err != nil {
		t.Fatal(err)
	}
	c, err := server.Authenticate(ctx, key)
	if err != nil || c.Account.TonePreset != "warm" || c.Account.SendRatePerMin != 40 || c.Account.BalanceMicro != 3_000_000 {
		t.Fatalf("after another's update: %v %+v", err, c.Account)
	}

	nk, err := other.RotateKey(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := server.Authenticate(ctx, key); errs.KindOf(err) != errs.Unauthorized {
		t.Fatalf("the rotated key still works on the server that remembered it: %v", err)
	}
	if c, err := server.Authenticate(ctx, nk); err != nil || c.Account.ID != a.ID {
		t.Fatalf("new key: %v", err)
	}
	if _, err := server.Authenticate(ctx, nk); err != nil {
		t.Fatalf("new key, remembered: %v", err)
	}
	if _, err := st.DeleteAccount(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Authenticate(ctx, nk); errs.KindOf(err) != errs.Unauthorized {
		t.Fatalf("key of a deleted account: %v", err)
	}
}
