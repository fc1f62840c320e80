package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver of countChunks

	storesqlite "svc/internal/store/sqlite"
)

// kbMeta describes a built KB directory. It is written last, so a directory without it is an
// interrupted build and is built again.
type kbMeta struct {
	Version int    `json:"version"`
	Corpus  string `json:"corpus"`
	// Shape is ShapeMixed ("" in a KB built before shapes) or ShapeLanguages.
	Shape       string `json:"shape,omitempty"`
	Size        int    `json:"size"`
	Chunks      int    `json:"chunks"`
	Pages       int    `json:"pages"`
	Synthesized int    `json:"synthesized_pages"`
	// AccountID and APIKey are the mixed KB's account; a KB of the languages shape has one
	// account per language in Accounts instead.
	AccountID int64         `json:"account_id,omitempty"`
	APIKey    string        `json:"api_key,omitempty"`
	Accounts  []langAccount `json:"accounts,omitempty"`
	SendRate  int           `json:"send_rate_per_min"`
	// ImportPeakRSS is the largest peak RSS of the `svc kb import` children that built it.
	ImportPeakRSS int64   `json:"import_peak_rss_bytes"`
	ImportSeconds float64 `json:"import_seconds"`
	BuiltBy       string  `json:"built_by"`
	BuiltAt       string  `json:"built_at"`
}

// langAccount is the account of one language in a KB of the languages shape.
type langAccount struct {
	Lang      string `json:"lang"`
	AccountID int64  `json:"account_id"`
	APIKey    string `json:"api_key"`
	Chunks    int    `json:"chunks"`
}

// kbDir is a KB data directory ready to be copied for a scenario.
type kbDir struct {
	dir    string
	meta   kbMeta
	reused bool
}

func (k kbDir) dataDir() string { return filepath.Join(k.dir, "data") }

// shape is the KB's shape, ShapeMixed for a KB built before shapes.
func (k kbDir) shape() string {
	if k.meta.Shape == "" {
		return ShapeMixed
	}
	return k.meta.Shape
}

// keyFor is the API key that asks a question in lang: its language's account in a KB of the
// languages shape, the one account otherwise.
func (k kbDir) keyFor(lang string) string {
	for _, a := range k.meta.Accounts {
		if a.Lang == lang {
			return a.APIKey
		}
	}
	return k.meta.APIKey
}

// label names the KB in progress lines: "10000" or "10000 languages".
func (k kbDir) label() string { return kbLabel(k.shape(), k.meta.Size) }

func kbLabel(shape string, size int) string {
	if shape == ShapeMixed {
		return strconv.Itoa(size)
	}
	return strconv.Itoa(size) + " " + shape
}

// kbKey names a KB of the run.
type kbKey struct {
	shape string
	size  int
}

const metaFile = "bench-kb.json"

// chunkTolerance is how far below the asked size a KB may stay: synthesized pages are one
// chunk each, so the first round normally lands on the size exactly.
const chunkTolerance = 0.02

// ensureKB returns the KB of shape and size chunks under the work folder, building it unless
// one built of the same kbVersion from the same XQuAD files is there. A mixed KB keeps the
// folder name it had before shapes, so that folders built then are still reused.
func (s *suite) ensureKB(ctx context.Context, shape string, size int) (kbDir, error) {
	name := fmt.Sprintf("kb-%d-v%d", size, kbVersion)
	if shape != ShapeMixed {
		name = fmt.Sprintf("kb-%d-%s-v%d", size, shape, kbVersion)
	}
	dir := filepath.Join(s.work, name)
	if raw, err := os.ReadFile(filepath.Join(dir, metaFile)); err == nil {
		var m kbMeta
		if json.Unmarshal(raw, &m) == nil && m.Version == kbVersion && m.Corpus == s.corpus.fingerprint && m.Size == size &&
			(kbDir{meta: m}).shape() == shape {
			k := kbDir{dir: dir, meta: m, reused: true}
			s.logf("kb %s: reusing %s (%d chunks, built %s by %s)", k.label(), dir, m.Chunks, m.BuiltAt, m.BuiltBy)
			if m.BuiltBy != s.version {
				s.warnf("the %s-chunk KB was built by svc %s, this is svc %s: its chunks are the older build's", k.label(), m.BuiltBy, s.version)
			}
			return k, nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return kbDir{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return kbDir{}, err
	}
	k := kbDir{dir: dir, meta: kbMeta{Version: kbVersion, Corpus: s.corpus.fingerprint, Shape: shape, Size: size,
		BuiltBy: s.version}}
	build := s.buildKB
	if shape == ShapeLanguages {
		build = s.buildLanguagesKB
	}
	if err := build(ctx, &k, size); err != nil {
		return kbDir{}, fmt.Errorf("build the %s-chunk KB: %w", k.label(), err)
	}
	k.meta.BuiltAt = time.Now().UTC().Format(time.RFC3339)
	raw, err := json.MarshalIndent(k.meta, "", "  ")
	if err != nil {
		return kbDir{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, metaFile), raw, 0o600); err != nil {
		return kbDir{}, err
	}
	return k, nil
}

// sendRates are the per-key send rates the bench asks for, in order: a million a minute (the
// most a key may have), or 10,000, the most a build before that limit accepts.
var sendRates = []int{1_000_000, 10_000}

type createdAccount struct {
	AccountID int64  `json:"account_id"`
	APIKey    string `json:"api_key"`
	SendRate  int    `json:"-"`
}

// createAccount creates an account of the bench with `svc account create`: a custom plan
// with no daily answer limit, the highest send rate the binary accepts, and a balance no run
// spends.
func (s *suite) createAccount(ctx context.Context, data, name string) (createdAccount, error) {
	var first error
	for _, rate := range sendRates {
		var a createdAccount
		ps, err := s.bin.run(ctx, commandTimeout, &a, "account", "create", "--data", data, "--name", name,
			"--plan", "custom", "--balance-usd", "100000", "--send-rate-per-min", strconv.Itoa(rate), "--daily-answers", "0")
		if err == nil {
			a.SendRate = rate
			return a, nil
		}
		if first == nil {
			first = err
		}
		if ps == nil || ps.ExitCode() != 2 { // only a refused argument is worth a lower rate
			break
		}
	}
	return createdAccount{}, first
}

// buildKB creates the account, imports the XQuAD pages, counts their chunks, and imports
// synthesized pages (one chunk each) until the KB holds size chunks, within chunkTolerance.
func (s *suite) buildKB(ctx context.Context, k *kbDir, size int) error {
	start := time.Now()
	acct, err := s.createAccount(ctx, k.dataDir(), "bench")
	if err != nil {
		return err
	}
	k.meta.AccountID, k.meta.APIKey, k.meta.SendRate = acct.AccountID, acct.APIKey, acct.SendRate
	chunks, err := s.fill(ctx, k, acct.AccountID, "", size, s.gen.synth)
	if err != nil {
		return err
	}
	k.meta.Chunks = chunks
	s.logBuilt(k, start)
	return nil
}

// buildLanguagesKB creates one account per language and fills each with its language's
// XQuAD pages and synthesized pages of that language until it holds size chunks.
func (s *suite) buildLanguagesKB(ctx context.Context, k *kbDir, size int) error {
	start := time.Now()
	for _, lg := range langs {
		acct, err := s.createAccount(ctx, k.dataDir(), "bench-"+lg)
		if err != nil {
			return err
		}
		synth := func(i int) page { return s.gen.synthIn(lg, i) }
		chunks, err := s.fill(ctx, k, acct.AccountID, lg, size, synth)
		if err != nil {
			return fmt.Errorf("%s: %w", lg, err)
		}
		k.meta.Accounts = append(k.meta.Accounts, langAccount{Lang: lg, AccountID: acct.AccountID, APIKey: acct.APIKey, Chunks: chunks})
		k.meta.Chunks += chunks
		if k.meta.SendRate == 0 || acct.SendRate < k.meta.SendRate {
			k.meta.SendRate = acct.SendRate
		}
	}
	s.logBuilt(k, start)
	return nil
}

// fill imports the XQuAD pages of lang ("" = every language) into the account, counts their
// chunks, and imports synthesized pages until the account holds size chunks, within
// chunkTolerance. It returns the account's chunks.
func (s *suite) fill(ctx context.Context, k *kbDir, accountID int64, lang string, size int, synth func(int) page) (int, error) {
	orig := originals(s.corpus, lang)
	if err := s.importPages(ctx, k, accountID, "originals"+lang, orig); err != nil {
		return 0, err
	}
	k.meta.Pages += len(orig)
	chunks, err := countChunks(ctx, k.dataDir(), accountID)
	if err != nil {
		return 0, err
	}
	next := 0
	for round := 1; chunks < size; round++ {
		if round > 1 && float64(chunks) >= float64(size)*(1-chunkTolerance) {
			break // close enough: a page the chunker split in two stands for a missing one
		}
		if round > 4 {
			return 0, fmt.Errorf("%d chunks after %d rounds of synthesized pages, want %d", chunks, round-1, size)
		}
		n := size - chunks
		pages := make([]page, n)
		for i := range pages {
			pages[i] = synth(next + i)
		}
		next += n
		of := ""
		if lang != "" {
			of = " into the " + lang + " account"
		}
		s.logf("kb %s: %d chunks from the XQuAD pages and earlier rounds; importing %d synthesized pages%s", k.label(), chunks, n, of)
		if err := s.importPages(ctx, k, accountID, "synth"+lang+"-"+strconv.Itoa(round), pages); err != nil {
			return 0, err
		}
		k.meta.Pages += n
		k.meta.Synthesized += n
		if chunks, err = countChunks(ctx, k.dataDir(), accountID); err != nil {
			return 0, err
		}
	}
	if chunks > size {
		s.warnf("the %s-chunk KB holds %d chunks: the XQuAD pages alone are that many", k.label(), chunks)
	}
	return chunks, nil
}

func (s *suite) logBuilt(k *kbDir, start time.Time) {
	s.logf("kb %s: %d chunks, %d pages, built in %s (import %s, peak RSS %.0f MB)", k.label(), k.meta.Chunks, k.meta.Pages,
		time.Since(start).Round(time.Second), time.Duration(k.meta.ImportSeconds*float64(time.Second)).Round(100*time.Millisecond),
		mb(k.meta.ImportPeakRSS))
}

// importPages writes pages to a file and imports it with `svc kb import`, adding the child's
// time and peak RSS to the KB's import figures.
func (s *suite) importPages(ctx context.Context, k *kbDir, accountID int64, name string, pages []page) error {
	path := filepath.Join(k.dir, name+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writePages(f, pages); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	defer os.Remove(path) // the generator makes it again when needed
	start := time.Now()
	// A large import runs for minutes and prints nothing until it ends: say it is alive.
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				s.logf("kb %s: importing %d pages, %s so far", k.label(), len(pages), time.Since(start).Round(time.Second))
			}
		}
	}()
	ps, err := s.bin.run(ctx, importTimeout, nil, "kb", "import", "--data", k.dataDir(), "--account",
		strconv.FormatInt(accountID, 10), path)
	if err != nil {
		return err
	}
	k.meta.ImportSeconds = round2(k.meta.ImportSeconds + time.Since(start).Seconds())
	if rss, ok := peakRSS(ps); ok && rss > k.meta.ImportPeakRSS {
		k.meta.ImportPeakRSS = rss
	}
	return nil
}

// countChunks counts the account's chunks in a data directory no server is using. There is
// no command that prints the count, so it reads the database itself, with one query and no
// migration: opening it through the store would upgrade the schema to this build's, which
// a --svc binary of an older build would then refuse to serve.
func countChunks(ctx context.Context, data string, accountID int64) (int, error) {
	path := filepath.Join(data, storesqlite.FileName)
	if _, err := os.Stat(path); err != nil {
		return 0, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM chunks WHERE account_id = ?`, accountID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the chunks in %s: %w", path, err)
	}
	return n, nil
}

// copyData copies a KB's data directory to dst (which must not exist), so that a scenario
// starts from the KB alone: no conversation, no cached answer. The lock file of an earlier
// server is left behind.
func copyData(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case !d.Type().IsRegular() || d.Name() == "serve.lock":
			return nil
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	_, err = io.Copy(out, in)
	return err
}
