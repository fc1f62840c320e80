package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"svc/internal/store/sqlstore"

	"github.com/pressly/goose/v3"
)

// migration9 fills the grouping key of the fallback questions that migration 8 backfilled
// from earlier conversations: SQL cannot compute it (Turkish-aware case folding,
// sqlstore.QuestionKey), so this step is Go. New questions get their key when SaveTurn records them,
// so after it every row has one and Unanswered groups in one query.
var migration9 = goose.NewGoMigration(9,
	&goose.GoFunc{RunTx: fillQuestionKeys},
	&goose.GoFunc{RunTx: func(context.Context, *sql.Tx) error { return nil }}, // the keys may stay
)

func fillQuestionKeys(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT q.message_id, m.body FROM fallback_questions q
		JOIN messages m ON m.id = q.message_id WHERE q.question_key IS NULL`)
	if err != nil {
		return fmt.Errorf("fill question keys: %w", err)
	}
	keys := map[int64]string{}
	for rows.Next() {
		var id int64
		var body string
		if err := rows.Scan(&id, &body); err != nil {
			rows.Close()
			return fmt.Errorf("fill question keys: %w", err)
		}
		keys[id] = sqlstore.QuestionKey(body)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("fill question keys: %w", err)
	}
	for id, key := range keys {
		if _, err := tx.ExecContext(ctx, `UPDATE fallback_questions SET question_key = ? WHERE message_id = ?`, key, id); err != nil {
			return fmt.Errorf("fill question keys: %w", err)
		}
	}
	return nil
}
