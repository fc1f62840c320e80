package users

import "testing"

func TestSecretShape(t *testing.T) {
	raw, hash := newSecret()
	if len(raw) != secretLen || secretLen != 43 || len(hash) != 32 {
		t.Fatalf("secret %q (%d), hash %d bytes", raw, len(raw), len(hash))
	}
	if got, ok := hashSecret(raw); !ok || string(got) != string(hash) {
		t.Fatal("a secret does not hash back")
	}
}
