package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

// Dashboard users. Every statement on a user names the account too, so a user id of another
// account behaves exactly like one that does not exist.

const userColumns = `id, account_id, email, role, password_hash, lang, created_at, last_sign_in_at,
	password_changed_at`

func scanUser(row interface{ Scan(...any) error }) (store.User, error) {
	var u store.User
	var created, signIn, changed string
	err := row.Scan(&u.ID, &u.AccountID, &u.Email, &u.Role, &u.PasswordHash, &u.Lang, &created, &signIn, &changed)
	u.CreatedAt, u.LastSignInAt, u.PasswordChangedAt = ParseTS(created), ParseTS(signIn), ParseTS(changed)
	return u, err
}

// tsOrNever stores a time that may not have happened: zero is the empty string (never).
func tsOrNever(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return TS(t)
}

// CreateUser inserts u. On SQLite the e-mail check and the insert are one IMMEDIATE
// transaction, so two concurrent creates of one address in an account cannot both pass the
// check; on PostgreSQL both can, and the UNIQUE index on (account_id, email) then refuses the
// second, reported as the check's ErrConflict.
func (s *Store) CreateUser(ctx context.Context, u *store.User) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if _, err := GetAccountTx(ctx, tx, u.AccountID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE account_id = ? AND email = ?`,
			u.AccountID, u.Email).Scan(&n); err != nil {
			return fmt.Errorf("find user: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("create user: the e-mail is taken: %w", store.ErrConflict)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO users (account_id, email, role, password_hash, lang,
			created_at, password_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			u.AccountID, u.Email, u.Role, u.PasswordHash, u.Lang, TS(now), tsOrNever(u.PasswordChangedAt)).Scan(&u.ID); err != nil {
			if s.d.UniqueViolation(err) {
				return fmt.Errorf("create user: the e-mail is taken: %w", store.ErrConflict)
			}
			return fmt.Errorf("insert user: %w", err)
		}
		u.CreatedAt, u.LastSignInAt = ParseTS(TS(now)), time.Time{} // as stored
		if !u.PasswordChangedAt.IsZero() {
			u.PasswordChangedAt = ParseTS(TS(u.PasswordChangedAt)) // as stored
		}
		return nil
	})
}

// GetUser reads one of the account's users.
func (s *Store) GetUser(ctx context.Context, accountID, userID int64) (store.User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE id = ? AND account_id = ?`,
		userID, accountID))
	if err != nil {
		return store.User{}, NotFound(err, "get user")
	}
	return u, nil
}

// UsersByEmail finds the users of every account with the e-mail, oldest first.
func (s *Store) UsersByEmail(ctx context.Context, email string) ([]store.User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE email = ? ORDER BY id`, email)
	if err != nil {
		return nil, fmt.Errorf("users by e-mail: %w", err)
	}
	defer rows.Close()
	out := []store.User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("users by e-mail: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("users by e-mail: %w", err)
	}
	return out, nil
}

// ListUsers lists the account's users, oldest first.
func (s *Store) ListUsers(ctx context.Context, accountID int64) ([]store.User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+userColumns+` FROM users WHERE account_id = ? ORDER BY id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	out := []store.User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("list users: %w", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return out, nil
}

// UpdateUser writes the user's role and language.
func (s *Store) UpdateUser(ctx context.Context, u *store.User) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET role = ?, lang = ? WHERE id = ? AND account_id = ?`,
		u.Role, u.Lang, u.ID, u.AccountID)
	return OneRow(res, err, fmt.Sprintf("update user %d", u.ID))
}

// RemoveUser deletes the user, its sessions and its links in one transaction, so that no
// session of a removed user survives it.
func (s *Store) RemoveUser(ctx context.Context, accountID, userID int64) error {
	return s.InTx(ctx, func(tx *Tx) error {
		if err := checkUserTx(ctx, tx, accountID, userID); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM sessions WHERE user_id = ? AND account_id = ?`,
			`DELETE FROM auth_tokens WHERE user_id = ? AND account_id = ?`,
			`DELETE FROM users WHERE id = ? AND account_id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, userID, accountID); err != nil {
				return fmt.Errorf("remove user %d: %w", userID, err)
			}
		}
		return nil
	})
}

// SetPassword stores the password hash and ends the user's other sessions and unused links.
func (s *Store) SetPassword(ctx context.Context, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error {
	return s.InTx(ctx, func(tx *Tx) error {
		return setPasswordTx(ctx, tx, accountID, userID, hash, at, keepSessionID)
	})
}

// setPasswordTx is SetPassword inside tx, shared with RedeemAuthToken. keepSessionID 0 keeps
// none (session ids start at 1).
func setPasswordTx(ctx context.Context, tx *Tx, accountID, userID int64, hash string, at time.Time, keepSessionID int64) error {
	res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, password_changed_at = ?
		WHERE id = ? AND account_id = ?`, hash, TS(at), userID, accountID)
	if err := OneRow(res, err, fmt.Sprintf("set password of user %d", userID)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND account_id = ? AND id <> ?`,
		userID, accountID, keepSessionID); err != nil {
		return fmt.Errorf("end sessions of user %d: %w", userID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM auth_tokens WHERE user_id = ? AND account_id = ? AND used_at = ''`,
		userID, accountID); err != nil {
		return fmt.Errorf("end links of user %d: %w", userID, err)
	}
	return nil
}

// RecordSignIn sets the user's last sign-in time.
func (s *Store) RecordSignIn(ctx context.Context, accountID, userID int64, at time.Time) error {
	res, err := s.w.ExecContext(ctx, `UPDATE users SET last_sign_in_at = ? WHERE id = ? AND account_id = ?`,
		TS(at), userID, accountID)
	return OneRow(res, err, fmt.Sprintf("record sign-in of user %d", userID))
}

// checkUserTx is the first statement on a user in a transaction that changes it or its rows;
// an engine with row locks takes the user's lock here (PostgreSQL: SELECT ... FOR UPDATE).
func checkUserTx(ctx context.Context, tx *Tx, accountID, userID int64) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE id = ? AND account_id = ?`, userID, accountID).Scan(&id)
	if err != nil {
		return NotFound(err, fmt.Sprintf("user %d", userID))
	}
	return nil
}
