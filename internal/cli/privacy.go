package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"svc/internal/billing"
	"svc/internal/privacy"
	"svc/internal/store"
)

// Data requests and account deletion: `svc visitor export|delete` and `svc account delete`.
// The rules (what is exported, deleted and kept) are internal/privacy's.

// visitorCommand parses --account and --visitor and opens the store on an existing account.
func visitorCommand(ctx context.Context, name string, args []string, env Env) (*command, store.Store, int64, string, error) {
	c, err := newCommand(name, env)
	if err != nil {
		return nil, nil, 0, "", err
	}
	id := c.accountFlag()
	raw := c.fs.String("visitor", "", "the widget visitor's id, a UUID (shown in the dashboard's transcript)")
	if err := c.parseForAccount(args, id); err != nil {
		return nil, nil, 0, "", err
	}
	if strings.TrimSpace(*raw) == "" {
		return nil, nil, 0, "", usagef("%s: --visitor UUID is required", name)
	}
	visitor, err := privacy.ParseVisitor(*raw)
	if err != nil {
		return nil, nil, 0, "", err
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return nil, nil, 0, "", err
	}
	return c, st, *id, visitor, nil
}

// cmdVisitorExport prints everything the account stores about a widget visitor, for a data
// access request.
func cmdVisitorExport(ctx context.Context, args []string, env Env) error {
	c, st, id, visitor, err := visitorCommand(ctx, "visitor export", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	exp, err := privacy.ExportVisitor(ctx, st, id, visitor, time.Now())
	if err != nil {
		return err
	}
	return c.print(exp)
}

// cmdVisitorDelete deletes a widget visitor's conversations and what belongs only to them,
// for an erasure request, and prints what went.
func cmdVisitorDelete(ctx context.Context, args []string, env Env) error {
	c, st, id, visitor, err := visitorCommand(ctx, "visitor delete", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	d, err := privacy.DeleteVisitor(ctx, st, id, visitor)
	if err != nil {
		return err
	}
	return c.print(map[string]any{"deleted": true, "account_id": id, "visitor": visitor,
		"conversations": d.Conversations, "messages": d.Messages, "feedback": d.Feedback,
		"review_items": d.ReviewItems, "cache_entries": d.CacheEntries})
}

// cmdAccountDelete deletes an account and everything it owns; --confirm must repeat the
// account's name. Its ledger rows and final balance are kept for accounting.
func cmdAccountDelete(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("account delete", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	confirm := c.fs.String("confirm", "", "the account's name, exactly (see svc account show): deleting cannot be undone")
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if !c.set("confirm") {
		return usagef("account delete: --confirm NAME is required: repeat the account's name (svc account show --account %d); "+
			"deleting cannot be undone", *id)
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	d, err := privacy.DeleteAccount(ctx, st, *id, *confirm)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "Account %d (%s) is deleted. Its %d ledger rows and its final balance of %s USD are kept "+
		"in the ledger archive.\n", d.AccountID, d.Name, d.LedgerKept, billing.FormatUSD(d.FinalBalanceMicro))
	return c.print(map[string]any{"deleted": true, "account_id": d.AccountID, "name": d.Name,
		"final_balance": billing.USD(d.FinalBalanceMicro), "ledger_rows_kept": d.LedgerKept,
		"conversations": d.Conversations, "messages": d.Messages, "documents": d.Documents, "sites": d.Sites,
		"embed_tokens": d.EmbedTokens, "users": d.Users, "keys": d.Keys, "notices": d.Notices,
		"deleted_at": d.DeletedAt.UTC().Format(time.RFC3339)})
}

// startRetention runs the retention sweep of SVC_RETENTION_DAYS inside serve: at once, then
// every privacy.SweepEvery. days 0 (the default) runs nothing. The returned stop waits for a
// sweep in progress to end, so serve closes the store after it.
func startRetention(ctx context.Context, st privacy.Sweeper, days int, log *slog.Logger) (stop func()) {
	if days <= 0 {
		return func() {}
	}
	log.Info("retention on: widget conversations idle this many days are deleted", slog.Int("days", days))
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		privacy.NewRetention(st, days, nil, log).Run(rctx, privacy.SweepEvery)
	}()
	return func() { cancel(); <-done }
}
