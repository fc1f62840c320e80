package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"svc/internal/store"
)

// Embed tokens are public widget tokens. Their allowed domains are stored comma separated
// (normalised domains never contain a comma); only the SHA-256 of the token is kept.

// The widget's appearance is one JSON document (appearance; empty before it was set); the avatar
// image's bytes are read only by EmbedAvatar, never with the token.
const embedColumns = `id, account_id, prefix, hash, label, domains, daily_budget_micro, hide_sources, status,
	created_at, updated_at, last_used_at, revoked_at, appearance, avatar_hash, avatar_type`

func scanEmbedToken(row interface{ Scan(...any) error }) (store.EmbedToken, error) {
	var t store.EmbedToken
	var domains, created, updated, used, revoked, look string
	var hide int
	err := row.Scan(&t.ID, &t.AccountID, &t.Prefix, &t.Hash, &t.Label, &domains, &t.DailyBudgetMicro, &hide, &t.Status,
		&created, &updated, &used, &revoked, &look, &t.AvatarHash, &t.AvatarType)
	if err != nil {
		return t, err
	}
	t.HideSources = hide != 0
	t.Domains = splitDomains(domains)
	t.CreatedAt, t.UpdatedAt, t.LastUsedAt, t.RevokedAt = ParseTS(created), ParseTS(updated), ParseTS(used), ParseTS(revoked)
	t.Appearance, err = parseAppearance(look)
	return t, err
}

// parseAppearance reads the stored document over the defaults, so a field it lacks (a token
// from before the field existed) has its default.
func parseAppearance(v string) (store.EmbedAppearance, error) {
	a := store.DefaultAppearance()
	if v == "" {
		return a, nil
	}
	if err := json.Unmarshal([]byte(v), &a); err != nil {
		return store.DefaultAppearance(), fmt.Errorf("embed token appearance: %w", err)
	}
	return a, nil
}

// blobArg is b as a query argument: nil is SQL NULL (a driver may bind a nil slice as an
// empty blob).
func blobArg(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

func appearanceJSON(a store.EmbedAppearance) (string, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return "", fmt.Errorf("embed token appearance: %w", err)
	}
	return string(b), nil
}

func scanEmbedTokens(rows *sql.Rows) ([]store.EmbedToken, error) {
	defer rows.Close()
	out := []store.EmbedToken{}
	for rows.Next() {
		t, err := scanEmbedToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func splitDomains(v string) []string {
	out := []string{}
	for _, d := range strings.Split(v, ",") {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// joinDomains is the stored form of domains; a domain that would not survive the round trip
// is refused.
func joinDomains(domains []string) (string, error) {
	for _, d := range domains {
		if d == "" || strings.Contains(d, ",") {
			return "", fmt.Errorf("embed token domain %q: empty or containing a comma", d)
		}
	}
	return strings.Join(domains, ","), nil
}

func checkEmbedToken(t *store.EmbedToken) (domains, look string, err error) {
	if t.DailyBudgetMicro <= 0 {
		return "", "", fmt.Errorf("embed token: the daily budget must be positive, not %d", t.DailyBudgetMicro)
	}
	if (t.AvatarHash == "") != (t.AvatarType == "") || (t.AvatarHash == "" && t.AvatarData != nil) {
		return "", "", fmt.Errorf("embed token: an avatar needs its hash, type and data together")
	}
	if domains, err = joinDomains(t.Domains); err != nil {
		return "", "", err
	}
	look, err = appearanceJSON(t.Appearance)
	return domains, look, err
}

// CreateEmbedToken inserts t as active unless the account already has maxActive active tokens.
// The transaction starts with Dialect.LockExistingAccount (SQLite: the IMMEDIATE transaction
// reads the account; PostgreSQL: its row lock), so concurrent creates queue behind each other
// and cannot both see room for one more.
func (s *Store) CreateEmbedToken(ctx context.Context, t *store.EmbedToken, maxActive int) error {
	domains, look, err := checkEmbedToken(t)
	if err != nil {
		return err
	}
	if t.AvatarHash != "" && t.AvatarData == nil {
		return fmt.Errorf("create embed token: an avatar hash without its image")
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockExistingAccount(ctx, tx, t.AccountID); err != nil {
			return err
		}
		var active int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM embed_tokens WHERE account_id = ? AND status = ?`,
			t.AccountID, store.EmbedActive).Scan(&active); err != nil {
			return fmt.Errorf("count embed tokens: %w", err)
		}
		if active >= maxActive {
			return fmt.Errorf("create embed token: %d active of %d: %w", active, maxActive, store.ErrLimitReached)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO embed_tokens (account_id, prefix, hash, label, domains,
			daily_budget_micro, hide_sources, status, created_at, updated_at, appearance, avatar_hash, avatar_type, avatar_data)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING id`, t.AccountID, t.Prefix, t.Hash, t.Label, domains, t.DailyBudgetMicro, BoolInt(t.HideSources),
			store.EmbedActive, TS(now), TS(now), look, t.AvatarHash, t.AvatarType, blobArg(t.AvatarData)).Scan(&t.ID); err != nil {
			return fmt.Errorf("insert embed token: %w", err)
		}
		t.AvatarData = nil
		t.Status, t.CreatedAt, t.UpdatedAt, t.LastUsedAt, t.RevokedAt = store.EmbedActive, now, now, time.Time{}, time.Time{}
		return nil
	})
}

// EmbedTokens lists the account's tokens, active ones first, newest first.
func (s *Store) EmbedTokens(ctx context.Context, accountID int64) ([]store.EmbedToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+embedColumns+` FROM embed_tokens WHERE account_id = ?
		ORDER BY CASE WHEN status = ? THEN 0 ELSE 1 END, created_at DESC, id DESC`, accountID, store.EmbedActive)
	if err != nil {
		return nil, fmt.Errorf("embed tokens: %w", err)
	}
	out, err := scanEmbedTokens(rows)
	if err != nil {
		return nil, fmt.Errorf("embed tokens: %w", err)
	}
	return out, nil
}

// GetEmbedToken reads one token of the account.
func (s *Store) GetEmbedToken(ctx context.Context, accountID, tokenID int64) (store.EmbedToken, error) {
	t, err := scanEmbedToken(s.r.QueryRowContext(ctx, `SELECT `+embedColumns+` FROM embed_tokens
		WHERE id = ? AND account_id = ?`, tokenID, accountID))
	if err != nil {
		return store.EmbedToken{}, NotFound(err, "get embed token")
	}
	return t, nil
}

// tokenStatus reads the status of one of the account's tokens inside tx. It is the first
// statement on the token in every transaction that must not race with another on the same
// token; an engine with row locks takes the lock here (Dialect.ForUpdate): the budget check of
// Reserve and the writes of UpdateEmbedToken then run one after the other for one token.
func (s *Store) tokenStatus(ctx context.Context, tx *Tx, accountID, tokenID int64) (string, error) {
	var status string
	err := tx.QueryRowContext(ctx, s.tokenStatusQuery, tokenID, accountID).Scan(&status)
	if err != nil {
		return "", NotFound(err, fmt.Sprintf("embed token %d", tokenID))
	}
	return status, nil
}

// tokenStatusQuery reads a token's status; the dialect's ForUpdate clause follows it.
const tokenStatusQuery = `SELECT status FROM embed_tokens WHERE id = ? AND account_id = ?`

// UpdateEmbedToken writes the label, the domains, the daily budget, the sources setting, the
// appearance and the avatar of an active token and refills t from the stored row. The image's
// bytes are written only when they are given; an avatar hash kept without them must be the
// stored one.
func (s *Store) UpdateEmbedToken(ctx context.Context, t *store.EmbedToken) error {
	domains, look, err := checkEmbedToken(t)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		status, err := s.tokenStatus(ctx, tx, t.AccountID, t.ID)
		if err != nil {
			return err
		}
		if status != store.EmbedActive {
			return fmt.Errorf("update embed token %d: %w", t.ID, store.ErrRevoked)
		}
		if t.AvatarData == nil && t.AvatarHash != "" {
			// Keeping the image: the hash must be the one stored with it.
			var stored string
			if err := tx.QueryRowContext(ctx, `SELECT avatar_hash FROM embed_tokens WHERE id = ? AND account_id = ?`,
				t.ID, t.AccountID).Scan(&stored); err != nil {
				return NotFound(err, "update embed token")
			}
			if stored != t.AvatarHash {
				return fmt.Errorf("update embed token %d: avatar %s without its image", t.ID, t.AvatarHash)
			}
		}
		// COALESCE keeps the stored bytes when none are given; clearing the hash clears them.
		got, err := scanEmbedToken(tx.QueryRowContext(ctx, `UPDATE embed_tokens SET label = ?, domains = ?,
			daily_budget_micro = ?, hide_sources = ?, appearance = ?, avatar_hash = ?, avatar_type = ?,
			avatar_data = CASE WHEN ? = '' THEN NULL ELSE COALESCE(?, avatar_data) END,
			updated_at = ? WHERE id = ? AND account_id = ? RETURNING `+embedColumns,
			t.Label, domains, t.DailyBudgetMicro, BoolInt(t.HideSources), look, t.AvatarHash, t.AvatarType,
			t.AvatarHash, blobArg(t.AvatarData), TS(now), t.ID, t.AccountID))
		if err != nil {
			return NotFound(err, "update embed token")
		}
		*t = got
		return nil
	})
}

// RevokeEmbedToken revokes one of the account's tokens; a revoked token stays as it was.
func (s *Store) RevokeEmbedToken(ctx context.Context, accountID, tokenID int64) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		status, err := s.tokenStatus(ctx, tx, accountID, tokenID)
		if err != nil || status == store.EmbedRevoked {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE embed_tokens SET status = ?, revoked_at = ?, updated_at = ?
			WHERE id = ? AND account_id = ?`, store.EmbedRevoked, TS(now), TS(now), tokenID, accountID); err != nil {
			return fmt.Errorf("revoke embed token: %w", err)
		}
		return nil
	})
}

// ActiveEmbedTokensByPrefix returns candidate tokens of any account; the caller compares
// hashes in constant time.
func (s *Store) ActiveEmbedTokensByPrefix(ctx context.Context, prefix string) ([]store.EmbedToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+embedColumns+` FROM embed_tokens WHERE prefix = ? AND status = ?
		ORDER BY id`, prefix, store.EmbedActive)
	if err != nil {
		return nil, fmt.Errorf("embed tokens by prefix: %w", err)
	}
	out, err := scanEmbedTokens(rows)
	if err != nil {
		return nil, fmt.Errorf("embed tokens by prefix: %w", err)
	}
	return out, nil
}

// ActiveEmbedDomains returns the distinct domains of every active token, sorted.
func (s *Store) ActiveEmbedDomains(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT DISTINCT domains FROM embed_tokens WHERE status = ?`, store.EmbedActive)
	if err != nil {
		return nil, fmt.Errorf("active embed domains: %w", err)
	}
	lists, err := ScanStrings(rows)
	if err != nil {
		return nil, fmt.Errorf("active embed domains: %w", err)
	}
	out := []string{}
	for _, l := range lists {
		out = append(out, splitDomains(l)...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// EmbedAvatar reads the image with that hash of an active token (of any account: the hash,
// a digest of public bytes, is the image's address).
func (s *Store) EmbedAvatar(ctx context.Context, hash string) (store.EmbedAvatar, error) {
	a := store.EmbedAvatar{Hash: hash}
	if hash == "" {
		return a, fmt.Errorf("embed avatar: no hash: %w", store.ErrNotFound)
	}
	err := s.r.QueryRowContext(ctx, `SELECT avatar_type, avatar_data FROM embed_tokens
		WHERE avatar_hash = ? AND status = ? AND avatar_data IS NOT NULL ORDER BY id LIMIT 1`,
		hash, store.EmbedActive).Scan(&a.Type, &a.Data)
	if err != nil {
		return store.EmbedAvatar{}, NotFound(err, "embed avatar")
	}
	return a, nil
}

// TouchEmbedToken records use of the token at most once a minute: the condition is in the
// UPDATE, so a token used within the minute costs no write.
func (s *Store) TouchEmbedToken(ctx context.Context, tokenID int64, at time.Time) error {
	if _, err := s.w.ExecContext(ctx, `UPDATE embed_tokens SET last_used_at = ? WHERE id = ? AND last_used_at < ?`,
		TS(at), tokenID, TS(at.Add(-time.Minute))); err != nil {
		return fmt.Errorf("touch embed token: %w", err)
	}
	return nil
}

// EmbedUsage reports each of the account's tokens that had any activity since a time. The four
// aggregates are read in one read transaction, so they describe one moment.
func (s *Store) EmbedUsage(ctx context.Context, accountID int64, since time.Time) (map[int64]store.EmbedUsage, error) {
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, fmt.Errorf("embed usage: %w", err)
	}
	defer tx.Rollback()
	out := map[int64]store.EmbedUsage{}
	for _, q := range []struct {
		sql  string
		args []any
		set  func(u *store.EmbedUsage, v int64)
	}{
		{`SELECT embed_token_id, COALESCE(SUM(cost_micro), 0) FROM usage_events
			WHERE account_id = ? AND embed_token_id IS NOT NULL AND created_at >= ? GROUP BY embed_token_id`,
			[]any{accountID, TS(since)}, func(u *store.EmbedUsage, v int64) { u.SpendMicro = v }},
		{`SELECT embed_token_id, COALESCE(SUM(amount_micro), 0) FROM reservations
			WHERE account_id = ? AND embed_token_id IS NOT NULL AND expires_at > ? GROUP BY embed_token_id`,
			[]any{accountID, TS(s.now())}, func(u *store.EmbedUsage, v int64) { u.ReservedMicro = v }},
		// SaveTurn writes a turn's messages and the conversation's updated_at with the same
		// time, so a conversation with a message since has updated_at since too: that bound
		// lets the (embed_token_id, updated_at) index pick the candidates, and EXISTS keeps only
		// those with a turn (opening the widget creates a conversation but no message).
		{`SELECT c.embed_token_id, COUNT(*) FROM conversations c
			WHERE c.account_id = ? AND c.embed_token_id IS NOT NULL AND c.updated_at >= ?
			AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.account_id = c.account_id
				AND m.created_at >= ?)
			GROUP BY c.embed_token_id`,
			[]any{accountID, TS(since), TS(since)}, func(u *store.EmbedUsage, v int64) { u.Conversations = int(v) }},
		{`SELECT embed_token_id, COUNT(*) FROM conversations
			WHERE account_id = ? AND embed_token_id IS NOT NULL AND last_seen_at >= ? GROUP BY embed_token_id`,
			[]any{accountID, TS(since)}, func(u *store.EmbedUsage, v int64) { u.Visitors = int(v) }},
	} {
		if err := func() error {
			rows, err := tx.QueryContext(ctx, q.sql, q.args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id, v int64
				if err := rows.Scan(&id, &v); err != nil {
					return err
				}
				u := out[id]
				q.set(&u, v)
				out[id] = u
			}
			return rows.Err()
		}(); err != nil {
			return nil, fmt.Errorf("embed usage: %w", err)
		}
	}
	return out, nil
}

// visitorScope is the conversations.scope of a widget visitor's conversation.
func visitorScope(tokenID int64, visitor string) string {
	return fmt.Sprintf("embed:%d:%s", tokenID, visitor)
}

// seenEvery is how stale a visitor's last_seen_at may get before opening the widget writes it.
const seenEvery = time.Minute

// OpenVisitorConversation returns the conversation of (tokenID, visitor), creating it in lang,
// and records the visitor as seen now. A visitor who opens the widget again within a minute
// costs no write: the token and the conversation are read on the reader pool first. Opening
// never moves updated_at, which is the time of the last turn.
func (s *Store) OpenVisitorConversation(ctx context.Context, accountID, tokenID int64, visitor, lang string) (store.Conversation, error) {
	if visitor == "" {
		return store.Conversation{}, fmt.Errorf("open visitor conversation: no visitor")
	}
	scope := visitorScope(tokenID, visitor)
	now := s.now().UTC()
	var status string
	err := s.r.QueryRowContext(ctx, `SELECT status FROM embed_tokens WHERE id = ? AND account_id = ?`,
		tokenID, accountID).Scan(&status)
	if err != nil {
		return store.Conversation{}, NotFound(err, fmt.Sprintf("embed token %d", tokenID))
	}
	if status != store.EmbedActive {
		return store.Conversation{}, fmt.Errorf("embed token %d: %w", tokenID, store.ErrRevoked)
	}
	c, seen, err := ConversationByScope(ctx, s.r, accountID, scope)
	if err == nil && !seen.Before(now.Add(-seenEvery)) {
		return c, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return c, err
	}
	err = s.InTx(ctx, func(tx *Tx) error {
		// The token may have been revoked since the read above.
		status, err := s.tokenStatus(ctx, tx, accountID, tokenID)
		if err != nil {
			return err
		}
		if status != store.EmbedActive {
			return fmt.Errorf("embed token %d: %w", tokenID, store.ErrRevoked)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO conversations (account_id, scope, embed_token_id, visitor, lang,
			created_at, updated_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, scope) DO NOTHING`,
			accountID, scope, tokenID, visitor, lang, TS(now), TS(now), TS(now)); err != nil {
			return fmt.Errorf("create visitor conversation: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET last_seen_at = ?
			WHERE account_id = ? AND scope = ? AND last_seen_at < ?`,
			TS(now), accountID, scope, TS(now.Add(-seenEvery))); err != nil {
			return fmt.Errorf("record visitor seen: %w", err)
		}
		c, _, err = ConversationByScope(ctx, tx, accountID, scope)
		return err
	})
	if err != nil {
		return store.Conversation{}, err
	}
	return c, nil
}

// CountUserMessages counts the conversation's user messages created at or after since.
func (s *Store) CountUserMessages(ctx context.Context, accountID, conversationID int64, since time.Time) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE account_id = ? AND conversation_id = ?
		AND role = ? AND created_at >= ?`, accountID, conversationID, store.RoleUser, TS(since)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count user messages: %w", err)
	}
	return n, nil
}

// tokenSpend is what counts against a token's budget for the day starting at since: the cost
// of its usage events since then and its reservations still live at now.
// EmbedSpend sums the token's charged usage events since a time.
func (s *Store) EmbedSpend(ctx context.Context, accountID, tokenID int64, since time.Time) (int64, error) {
	var spend int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(SUM(cost_micro), 0) FROM usage_events
		WHERE account_id = ? AND embed_token_id = ? AND created_at >= ?`, accountID, tokenID, TS(since)).Scan(&spend)
	if err != nil {
		return 0, fmt.Errorf("embed token %d spend: %w", tokenID, err)
	}
	return spend, nil
}

func tokenSpend(ctx context.Context, tx *Tx, accountID, tokenID int64, since, now time.Time) (spend, reserved int64, err error) {
	err = tx.QueryRowContext(ctx, `SELECT
		(SELECT COALESCE(SUM(cost_micro), 0) FROM usage_events
			WHERE account_id = ? AND embed_token_id = ? AND created_at >= ?),
		(SELECT COALESCE(SUM(amount_micro), 0) FROM reservations
			WHERE account_id = ? AND embed_token_id = ? AND expires_at > ?)`,
		accountID, tokenID, TS(since), accountID, tokenID, TS(now)).Scan(&spend, &reserved)
	if err != nil {
		return 0, 0, fmt.Errorf("embed token %d spend: %w", tokenID, err)
	}
	return spend, reserved, nil
}
