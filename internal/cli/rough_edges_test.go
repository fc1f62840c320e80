package cli

import (
	"bytes"
	"strings"
	"testing"
)

// wantOneLine fails unless a command exited 2 with nothing on stdout and exactly one line,
// "svc: ..." containing each of wants, on stderr.
func wantOneLine(t *testing.T, args []string, code int, out, errOut string, wants ...string) {
	t.Helper()
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "svc: ") {
		t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line on stderr", args, code, out, errOut)
		return
	}
	for _, w := range wants {
		if !strings.Contains(errOut, w) {
			t.Errorf("%v: stderr %q lacks %q", args, errOut, w)
		}
	}
}

// A flag the command cannot parse is reported in one line, not followed by every flag; -h
// still lists the flags, and exits 0.
func TestFlagErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", "Acme"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"account", "show", "--account", "abc"}, []string{`invalid value "abc" for flag -account`}},
		{[]string{"account", "show", "--account", "1", "--bogus"}, []string{"flag provided but not defined: -bogus"}},
		{[]string{"balance", "add", "--account"}, []string{"flag needs an argument: -account"}},
		{[]string{"crawl", "--account", "1", "--max-pages", "many", "https://shop.example"}, []string{"-max-pages"}},
		{[]string{"ledger", "check", "--account", "one"}, []string{"-account"}},
		{[]string{"backup", "--nope"}, []string{"-nope"}},
		{[]string{"version", "--nope"}, []string{"-nope"}},
		{[]string{"nope"}, []string{`unknown command "nope"`, "svc help"}},
	} {
		code, out, errOut := runCLI(t, dir, "", tc.args...)
		wantOneLine(t, tc.args, code, out, errOut, tc.wants...)
	}
	for _, args := range [][]string{{"account", "show", "-h"}, {"balance", "add", "--help"}, {"ledger", "check", "-h"}} {
		code, out, errOut := runCLI(t, dir, "", args...)
		if code != 0 || out != "" || !strings.Contains(errOut, "usage: svc "+args[0]+" "+args[1]+" [flags]") ||
			!strings.Contains(errOut, "-account") || !strings.Contains(errOut, "-data") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the flags on stderr and exit 0", args, code, out, errOut)
		}
	}
}

// balance add takes only a positive amount; money goes back through balance deduct, which
// wants a reason and never takes the balance below zero.
func TestBalanceAmounts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", "Acme", "--balance-usd", "10"); code != 0 {
		t.Fatal(errOut)
	}
	balance := func() float64 {
		t.Helper()
		_, out, _ := runCLI(t, dir, "", "account", "show", "--account", "1")
		return decodeOne(t, out)["balance"].(float64)
	}
	for _, tc := range []struct {
		usd  string
		want string
	}{
		{"-3", "balance deduct"},
		{"0", "above zero"},
		{"-0", "above zero"},
		{"0.0000001", "more than 6 decimal places"},
		{"NaN", "not an amount"},
		{"Inf", "not an amount"},
		{"1e3", "not an amount"},
		{"", "empty amount"},
	} {
		args := []string{"balance", "add", "--account", "1", "--usd", tc.usd}
		code, out, errOut := runCLI(t, dir, "", args...)
		wantOneLine(t, args, code, out, errOut, tc.want)
	}
	args := []string{"balance", "add", "--account", "1"}
	code, out, errOut := runCLI(t, dir, "", args...)
	wantOneLine(t, args, code, out, errOut, "--usd X is required")
	if got := balance(); got != 10 {
		t.Fatalf("refused amounts moved the balance to %v", got)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--usd", "2"}, "--reason TEXT is required"},
		{[]string{"--usd", "2", "--reason", "  "}, "--reason TEXT is required"},
		{[]string{"--usd", "-2", "--reason", "refund"}, "above zero"},
		{[]string{"--usd", "11", "--reason", "refund"}, "below zero"},
		{[]string{"--usd", "1", "--reason", strings.Repeat("x", 201)}, "at most 200 characters"},
	} {
		args := append([]string{"balance", "deduct", "--account", "1"}, tc.args...)
		code, out, errOut := runCLI(t, dir, "", args...)
		wantOneLine(t, args, code, out, errOut, tc.want)
	}
	code, out, errOut = runCLI(t, dir, "", "balance", "deduct", "--account", "1", "--usd", "2.5", "--reason", "refunded by bank transfer")
	if m := decodeOne(t, out); code != 0 || m["balance"] != 7.5 {
		t.Fatalf("deduct: %d %v %s", code, m, errOut)
	}
	code, out, _ = runCLI(t, dir, "", "balance", "add", "--account", "1", "--usd", "0.000001")
	if m := decodeOne(t, out); code != 0 || m["balance"] != 7.500001 {
		t.Fatalf("add the smallest amount: %d %v", code, m)
	}
	// Both moved the balance through the ledger.
	if code, out, errOut := runCLI(t, dir, "", "ledger", "check"); code != 0 || decodeOne(t, out)["ok"] != true {
		t.Fatalf("ledger check after add and deduct: %d %s %s", code, out, errOut)
	}
}

// A crawl whose start URL the address guard refuses stops before storing anything, says why
// and which flag allows it, and exits 2.
func TestCrawlRefusedStartAddress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, errOut := runCLI(t, dir, "", "account", "create", "--name", "Acme"); code != 0 {
		t.Fatal(errOut)
	}
	for _, tc := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"http://127.0.0.1:1/"}, []string{"127.0.0.1 is refused", "loopback", "--allow-private", "SVC_CRAWL_ALLOW_PRIVATE=1"}},
		{[]string{"http://[::1]:1/"}, []string{"::1 is refused", "--allow-private"}},
		{[]string{"http://10.1.2.3/"}, []string{"private", "--allow-private"}},
		{[]string{"http://localhost:1/"}, []string{"localhost is refused", "loopback", "--allow-private", "SVC_CRAWL_ALLOW_PRIVATE=1"}},
		{[]string{"http://shop.localhost:1/"}, []string{"loopback", "--allow-private"}},
		{[]string{"http://0.0.0.0/"}, []string{"this network", "--allow-private"}},
		{[]string{"http://[::ffff:127.0.0.1]/"}, []string{"loopback", "--allow-private"}},
		// Numeric forms of an IPv4 address are that address, not names that do not resolve
		// (they passed, and the site was stored).
		{[]string{"http://0/"}, []string{"0 is refused", "0.0.0.0", "--allow-private"}},
		{[]string{"http://2130706433/"}, []string{"2130706433 is refused", "127.0.0.1 is loopback", "--allow-private"}},
		{[]string{"http://0x7f000001/"}, []string{"127.0.0.1 is loopback", "--allow-private"}},
		{[]string{"http://0x7f.0.0.1/"}, []string{"127.0.0.1 is loopback", "--allow-private"}},
		{[]string{"http://0177.0.0.1/"}, []string{"127.0.0.1 is loopback", "--allow-private"}},
		{[]string{"http://127.1/"}, []string{"127.0.0.1 is loopback", "--allow-private"}},
		{[]string{"http://127.000.000.001/"}, []string{"127.0.0.1 is loopback", "--allow-private"}},
		// A metadata endpoint is never allowed, so the flag is not offered.
		{[]string{"--allow-private", "http://169.254.169.254/latest/"}, []string{"never fetches it"}},
		{[]string{"http://169.254.169.254/latest/"}, []string{"never fetches it"}},
		{[]string{"http://metadata.google.internal/computeMetadata/v1/"}, []string{"metadata", "never fetches it"}},
		{[]string{"--allow-private", "http://0xa9fea9fe/"}, []string{"169.254.169.254", "never fetches it"}},
	} {
		args := append([]string{"crawl", "--account", "1"}, tc.args...)
		code, out, errOut := runCLI(t, dir, "", args...)
		wantOneLine(t, args, code, out, errOut, tc.wants...)
		if strings.Contains(errOut, "never fetches") && strings.Contains(errOut, "--allow-private") {
			t.Errorf("%v offers --allow-private for a metadata endpoint: %s", args, errOut)
		}
	}
	// `svc site add` refuses the same addresses before storing them.
	for _, u := range []string{"http://127.0.0.1:1/", "http://2130706433/", "http://metadata.google.internal/"} {
		args := []string{"site", "add", "--account", "1", "--url", u}
		code, out, errOut := runCLI(t, dir, "", args...)
		wantOneLine(t, args, code, out, errOut, "site add: ", "is refused")
	}
	if _, out, _ := runCLI(t, dir, "", "site", "list", "--account", "1"); len(decodeOne(t, out)["sites"].([]any)) != 0 {
		t.Fatalf("a refused crawl or site add created a site: %s", out)
	}
	// The same for a site crawled by id, from its stored URL (added where private addresses
	// are allowed).
	if code, _, errOut := runCLI(t, dir, "", "site", "add", "--account", "1", "--url", "http://127.0.0.1:9/", "--allow-private"); code != 0 {
		t.Fatal(errOut)
	}
	args := []string{"crawl", "--account", "1", "--site", "1"}
	code, out, errOut := runCLI(t, dir, "", args...)
	wantOneLine(t, args, code, out, errOut, "--allow-private")
}

func TestBlockedHint(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	blockedHint(&b, 0, false)
	if b.Len() != 0 {
		t.Fatalf("a crawl with nothing blocked: %q", b.String())
	}
	blockedHint(&b, 3, false)
	if got := b.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "3 URL(s) skipped as blocked") ||
		!strings.Contains(got, "--allow-private") || !strings.Contains(got, "SVC_CRAWL_ALLOW_PRIVATE=1") {
		t.Fatalf("hint: %q", got)
	}
	b.Reset()
	blockedHint(&b, 1, true)
	if got := b.String(); !strings.Contains(got, "never fetches") || strings.Contains(got, "--allow-private") {
		t.Fatalf("hint with --allow-private: %q", got)
	}
}
