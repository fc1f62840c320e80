package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"svc/internal/store"
)

// Chunk vectors (store.Vectors; migrations 22 and PostgreSQL's 6). A vector is keyed by its
// chunk and model and goes with its chunk through the foreign key's cascade; chunks never
// change text under their id, so nothing else invalidates one. The queue of the background
// embedder is the chunks without a vector of its model, read with an anti-join, so every
// path that writes chunks feeds it without knowing of it.

// The queries whose plans matter as KBs grow (the SQLite store's plan test reads them):
//   - ChunksToEmbedQuery walks the account's chunks in id order (chunks_account ends in the
//     id on both databases) and probes each against chunk_vectors' primary key;
//   - AccountsToEmbedQuery compares counts rather than looking for a chunk without a vector:
//     a vector exists only for a live chunk of its account (the foreign key, the cascade
//     and PutChunkVectors' SELECT), at most one per model, so an account has work exactly
//     when it has more chunks than vectors of the model; both counts read an index, no row;
//   - ChunkVectorsQuery walks chunk_vectors_account;
//   - ModelVectorsQuery counts the vectors of each model the account has had (vector_models,
//     in the order of its key) from chunk_vectors_account; a model whose vectors were
//     deleted counts none and is left out.
const (
	ChunksToEmbedQuery = `SELECT c.id, c.document_id, d.type, d.lang, d.title, c.heading, c.text, c.tokens
		FROM chunks c JOIN documents d ON d.id = c.document_id
		WHERE c.account_id = ? AND c.id > ?
		AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id AND v.model = ?)
		ORDER BY c.id LIMIT ?`
	AccountsToEmbedQuery = `SELECT a.id FROM accounts a WHERE a.id > ?
		AND (SELECT COUNT(*) FROM chunks c WHERE c.account_id = a.id)
			> (SELECT COUNT(*) FROM chunk_vectors v WHERE v.account_id = a.id AND v.model = ?)
		ORDER BY a.id LIMIT ?`
	ChunkVectorsQuery = `SELECT v.chunk_id, v.dim, v.encoding, v.data, c.document_id, d.type,
		COALESCE(d.site_id, 0), d.lang
		FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id JOIN documents d ON d.id = c.document_id
		WHERE v.account_id = ? AND v.model = ? ORDER BY v.chunk_id`
	ModelVectorsQuery = `SELECT m.model, (SELECT COUNT(*) FROM chunk_vectors v WHERE v.account_id = m.account_id
		AND v.model = m.model), m.dim, m.encoding, m.updated_at FROM vector_models m WHERE m.account_id = ?
		ORDER BY m.model`
)

// putVectorQuery stores one vector if its chunk is still the account's: the SELECT finds
// no row for a chunk deleted meanwhile, or another account's, and nothing is written.
const putVectorQuery = `INSERT INTO chunk_vectors (chunk_id, account_id, model, dim, encoding, data, created_at)
	SELECT id, account_id, ?, ?, ?, ?, ? FROM chunks WHERE id = ? AND account_id = ?
	ON CONFLICT (chunk_id, model) DO UPDATE SET dim = excluded.dim, encoding = excluded.encoding,
	data = excluded.data, created_at = excluded.created_at`

// PutChunkVectors stores vecs in one transaction under the KB's lock, which every
// transaction that deletes chunks takes too (LockKB): on PostgreSQL a vector whose chunk
// another transaction is deleting would otherwise pass the SELECT and then fail the
// foreign key's check once the delete commits. With the lock, the SELECT sees the delete
// and the vector is skipped. SQLite's single writer serialises them anyway.
func (s *Store) PutChunkVectors(ctx context.Context, accountID int64, model string, vecs []store.ChunkVector) (int, error) {
	if model == "" {
		return 0, store.ErrNoModel
	}
	for _, v := range vecs {
		if err := v.Check(); err != nil {
			return 0, err
		}
	}
	if len(vecs) == 0 {
		return 0, nil
	}
	now := TS(s.now())
	var stored int
	err := s.InTx(ctx, func(tx *Tx) error {
		stored = 0
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var last store.ChunkVector
		for _, v := range vecs {
			n, err := ExecCount(ctx, tx, putVectorQuery, model, v.Dim, v.Encoding, v.Data, now, v.ChunkID, accountID)
			if err != nil {
				return fmt.Errorf("put chunk vector: %w", err)
			}
			if n > 0 {
				stored++
				last = v
			}
		}
		if stored == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO vector_models (account_id, model, dim, encoding, version, updated_at)
			VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (account_id, model) DO UPDATE SET dim = excluded.dim,
			encoding = excluded.encoding, version = vector_models.version + 1, updated_at = excluded.updated_at`,
			accountID, model, last.Dim, last.Encoding, now); err != nil {
			return fmt.Errorf("put chunk vectors: model: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return stored, nil
}

// ChunksToEmbed reads the account's chunks after afterID without a vector of model.
func (s *Store) ChunksToEmbed(ctx context.Context, accountID int64, model string, afterID int64, limit int) ([]store.ChunkText, error) {
	if model == "" {
		return nil, store.ErrNoModel
	}
	if limit <= 0 {
		return []store.ChunkText{}, nil
	}
	rows, err := s.r.QueryContext(ctx, ChunksToEmbedQuery, accountID, afterID, model, limit)
	if err != nil {
		return nil, fmt.Errorf("chunks to embed: %w", err)
	}
	defer rows.Close()
	out := []store.ChunkText{}
	for rows.Next() {
		var c store.ChunkText
		if err := rows.Scan(&c.ID, &c.DocID, &c.DocType, &c.Lang, &c.Title, &c.Heading, &c.Text, &c.Tokens); err != nil {
			return nil, fmt.Errorf("chunks to embed: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("chunks to embed: %w", err)
	}
	return out, nil
}

// AccountsToEmbed lists the accounts with more chunks than vectors of model.
func (s *Store) AccountsToEmbed(ctx context.Context, model string, afterID int64, limit int) ([]int64, error) {
	if model == "" {
		return nil, store.ErrNoModel
	}
	if limit <= 0 {
		return []int64{}, nil
	}
	rows, err := s.r.QueryContext(ctx, AccountsToEmbedQuery, afterID, model, limit)
	if err != nil {
		return nil, fmt.Errorf("accounts to embed: %w", err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("accounts to embed: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("accounts to embed: %w", err)
	}
	return out, nil
}

// ChunkVectors reads each row as it goes: an index of 50,000 vectors is loaded without a
// second copy of them all in memory.
func (s *Store) ChunkVectors(ctx context.Context, accountID int64, model string, fn func(store.StoredVector) error) error {
	if model == "" {
		return store.ErrNoModel
	}
	rows, err := s.r.QueryContext(ctx, ChunkVectorsQuery, accountID, model)
	if err != nil {
		return fmt.Errorf("chunk vectors: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v store.StoredVector
		// Scanning into a []byte copies the driver's buffer, so fn may keep it.
		if err := rows.Scan(&v.ChunkID, &v.Dim, &v.Encoding, &v.Data, &v.DocID, &v.DocType, &v.SiteID,
			&v.Lang); err != nil {
			return fmt.Errorf("chunk vectors: %w", err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("chunk vectors: %w", Cancelled(ctx, err))
	}
	return nil
}

// VectorVersion is the sum of the account's KB version (kb_stats, which grows with every
// change of its chunks, a deletion included) and the model's vector version (vector_models,
// which grows with every PutChunkVectors that stored something and every DeleteOtherModels
// that deleted its vectors). Both only grow and neither row is deleted while the account
// lives, so the sum changes whenever either does.
func (s *Store) VectorVersion(ctx context.Context, accountID int64, model string) (int64, error) {
	if model == "" {
		return 0, store.ErrNoModel
	}
	var kb, vec int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE((SELECT SUM(version) FROM kb_stats WHERE account_id = ?), 0),
		COALESCE((SELECT version FROM vector_models WHERE account_id = ? AND model = ?), 0)`,
		accountID, accountID, model).Scan(&kb, &vec)
	if err != nil {
		return 0, fmt.Errorf("vector version: %w", err)
	}
	return kb + vec, nil
}

// EmbeddingStatus counts the account's chunks and its vectors per model in one snapshot.
func (s *Store) EmbeddingStatus(ctx context.Context, accountID int64) (store.EmbeddingStatus, error) {
	st := store.EmbeddingStatus{Models: []store.ModelVectors{}}
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return st, fmt.Errorf("embedding status: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM chunks WHERE account_id = ?`, accountID).
		Scan(&st.Chunks); err != nil {
		return st, fmt.Errorf("embedding status: %w", err)
	}
	rows, err := tx.QueryContext(ctx, ModelVectorsQuery, accountID)
	if err != nil {
		return st, fmt.Errorf("embedding status: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var m store.ModelVectors
		var updated string
		if err := rows.Scan(&m.Model, &m.Vectors, &m.Dim, &m.Encoding, &updated); err != nil {
			return st, fmt.Errorf("embedding status: %w", err)
		}
		if m.Vectors == 0 {
			continue
		}
		m.UpdatedAt = ParseTS(updated)
		st.Models = append(st.Models, m)
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("embedding status: %w", err)
	}
	return st, nil
}

// DeleteOtherModels deletes the other models' vectors and moves their versions on, keeping
// their vector_models rows so that a version never goes back (an index of such a model,
// built before, is then seen as stale, not current).
func (s *Store) DeleteOtherModels(ctx context.Context, accountID int64, keep string) (int, error) {
	if keep == "" {
		return 0, store.ErrNoModel
	}
	var n int
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var err error
		if n, err = ExecCount(ctx, tx, `DELETE FROM chunk_vectors WHERE account_id = ? AND model <> ?`,
			accountID, keep); err != nil {
			return fmt.Errorf("delete other models' vectors: %w", err)
		}
		if n == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE vector_models SET version = version + 1, updated_at = ?
			WHERE account_id = ? AND model <> ?`, TS(s.now()), accountID, keep); err != nil {
			return fmt.Errorf("delete other models' vectors: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// chunksByIDBatch bounds the ids bound in one query of ChunksByID.
const chunksByIDBatch = 512

// idListSize is the length of an IN list holding n ids: the next power of two from 8, the
// rest of the list padded with 0, which no row has as its id. A query of each length is a
// statement of its own in a pool's cache, so lists of any length share seven.
func idListSize(n int) int {
	size := 8
	for size < n {
		size *= 2
	}
	return size
}

// ChunksByID reads the chunks among ids that are the account's, as SearchChunks returns
// them, and puts them in the order of ids.
func (s *Store) ChunksByID(ctx context.Context, accountID int64, ids []int64) ([]store.ChunkHit, error) {
	byID := make(map[int64]store.ChunkHit, len(ids))
	for batch := range slices.Chunk(ids, chunksByIDBatch) {
		size := idListSize(len(batch))
		args := make([]any, 0, size+1)
		args = append(args, accountID)
		for _, id := range batch {
			args = append(args, id)
		}
		for len(args) < size+1 {
			args = append(args, int64(0))
		}
		if err := s.readHits(ctx, byID, `SELECT c.id, c.document_id, d.type, d.title, d.url, d.lang, c.heading, c.text,
			c.terms, c.tokens, p.name, p.url, p.price, p.category, p.image
			FROM chunks c JOIN documents d ON d.id = c.document_id LEFT JOIN products p ON p.document_id = d.id
			WHERE c.account_id = ? AND c.id IN (`+Placeholders(size)+`)`, args); err != nil {
			return nil, err
		}
	}
	out := make([]store.ChunkHit, 0, len(byID))
	for _, id := range ids {
		if h, ok := byID[id]; ok {
			out = append(out, h)
			delete(byID, id) // an id given twice is returned once
		}
	}
	return out, nil
}

func (s *Store) readHits(ctx context.Context, into map[int64]store.ChunkHit, query string, args []any) error {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("chunks by id: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.ChunkHit
		var pName, pURL, pPrice, pCat, pImg sql.NullString
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.DocType, &h.Title, &h.URL, &h.Lang, &h.Heading, &h.Text,
			&h.Terms, &h.Tokens, &pName, &pURL, &pPrice, &pCat, &pImg); err != nil {
			return fmt.Errorf("chunks by id: %w", err)
		}
		if pName.Valid {
			h.Product = &store.Product{Name: pName.String, URL: pURL.String, Price: pPrice.String,
				Category: pCat.String, Image: pImg.String}
		}
		into[h.ChunkID] = h
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("chunks by id: %w", err)
	}
	return nil
}

// LeaseEmbedding takes or renews the account's embedding lease (see store.Vectors) with one
// upsert, whose condition decides between two processes that race for it: the row either
// changes for one of them or not at all.
func (s *Store) LeaseEmbedding(ctx context.Context, accountID int64, holder string, until time.Time) (bool, error) {
	if holder == "" {
		return false, errors.New("lease embedding: no holder")
	}
	var n int
	err := s.InTx(ctx, func(tx *Tx) (err error) {
		n, err = ExecCount(ctx, tx, `INSERT INTO embedding_leases (account_id, holder, expires_at) VALUES (?, ?, ?)
			ON CONFLICT (account_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE embedding_leases.holder = excluded.holder OR embedding_leases.expires_at <= ?`,
			accountID, holder, TS(until), TS(s.now()))
		return err
	})
	if err != nil {
		return false, fmt.Errorf("lease embedding: %w", err)
	}
	return n > 0, nil
}

// ReleaseEmbedding deletes holder's lease of the account.
func (s *Store) ReleaseEmbedding(ctx context.Context, accountID int64, holder string) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM embedding_leases WHERE account_id = ? AND holder = ?`,
		accountID, holder); err != nil {
		return fmt.Errorf("release embedding lease: %w", err)
	}
	return nil
}
