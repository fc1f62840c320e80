package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// Errors of Backup, Verify and Restore that mean a bad argument rather than a failure.
var (
	// ErrNoDatabase: the data directory holds no database to back up.
	ErrNoDatabase = errors.New("no svc database")
	// ErrExists: the backup's destination already exists.
	ErrExists = errors.New("already exists")
	// ErrNotBackup: the file is not a usable svc database (not SQLite, damaged, not svc's
	// schema, or a schema newer than this binary's).
	ErrNotBackup = errors.New("not a usable svc database")
	// ErrNotEmpty: the data directory to restore into already holds files (or is a file).
	ErrNotEmpty = errors.New("not an empty directory")
)

// FileInfo describes a database file checked by Verify.
type FileInfo struct {
	Path          string
	Bytes         int64
	SchemaVersion int64 // the newest migration applied to it
	Accounts      int
}

// Backup writes a consistent copy of the database in dir to dest with SQLite's VACUUM INTO,
// on a connection of its own: it reads one snapshot while `svc serve` goes on writing (WAL),
// and the copy is compacted and has no -wal file to go with it. The copy is written under a
// temporary name next to dest, verified (Verify), and only then linked to dest, so dest
// never names a partial or damaged file. dest must not exist (ErrExists). Backup runs no
// migrations: a newer binary must not change the schema under a running older server.
func Backup(ctx context.Context, dir, dest string) (FileInfo, error) {
	src := filepath.Join(dir, FileName)
	if st, err := os.Stat(src); err != nil || !st.Mode().IsRegular() {
		return FileInfo{}, fmt.Errorf("%s: %w", src, ErrNoDatabase)
	}
	dest, err := filepath.Abs(dest)
	if err != nil {
		return FileInfo{}, fmt.Errorf("backup: %w", err)
	}
	if _, err := os.Lstat(dest); err == nil {
		return FileInfo{}, fmt.Errorf("%s %w", dest, ErrExists)
	}
	// VACUUM INTO writes into a missing or empty file; an empty temporary file reserves a
	// unique name, with owner-only permissions (the copy holds key hashes and customer data).
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".*.partial")
	if err != nil {
		return FileInfo{}, fmt.Errorf("backup: %w", err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName)

	db, err := sql.Open("sqlite", fileDSN(src, "rw", false, 5*time.Second))
	if err != nil {
		return FileInfo{}, fmt.Errorf("backup: open %s: %w", src, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, tmpName); err != nil {
		return FileInfo{}, fmt.Errorf("backup: copy %s: %w", src, err)
	}
	info, err := Verify(ctx, tmpName)
	if err != nil {
		return FileInfo{}, fmt.Errorf("backup: the copy failed its check: %w", err)
	}
	if err := syncFile(tmpName); err != nil {
		return FileInfo{}, fmt.Errorf("backup: %w", err)
	}
	if err := publish(tmpName, dest); err != nil {
		return FileInfo{}, err
	}
	info.Path = dest
	return info, syncDir(filepath.Dir(dest))
}

// publish gives the finished file at tmp the name dest without replacing a file that
// appeared there meanwhile: a hard link fails when dest exists. Where the file system has no
// hard links, a rename after a last look is the fallback.
func publish(tmp, dest string) error {
	err := os.Link(tmp, dest)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s %w", dest, ErrExists)
	}
	if _, serr := os.Lstat(dest); serr == nil {
		return fmt.Errorf("%s %w", dest, ErrExists)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// sqliteHeader starts every SQLite 3 database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Verify checks that the file at path is a svc database this binary can open: an SQLite
// file that passes PRAGMA integrity_check, with svc's tables and goose's version table, at a
// schema version no newer than this binary's migrations. It opens the file read-only and
// immutable, so it neither changes the file nor leaves -wal or -shm files beside it; the file
// must not be in use. Every refusal wraps ErrNotBackup.
func Verify(ctx context.Context, path string) (FileInfo, error) {
	info := FileInfo{Path: path}
	f, err := os.Open(path)
	if err != nil {
		return info, fmt.Errorf("%w: %w", ErrNotBackup, err)
	}
	head := make([]byte, len(sqliteHeader))
	_, err = io.ReadFull(f, head)
	st, serr := f.Stat()
	f.Close()
	if serr != nil {
		return info, fmt.Errorf("%s: %w", path, serr)
	}
	if !st.Mode().IsRegular() {
		return info, fmt.Errorf("%w: %s is not a regular file", ErrNotBackup, path)
	}
	if err != nil || !bytes.Equal(head, sqliteHeader) {
		return info, fmt.Errorf("%w: %s is not an SQLite database", ErrNotBackup, path)
	}
	info.Bytes = st.Size()

	db, err := sql.Open("sqlite", fileDSN(path, "ro", true, 0))
	if err != nil {
		return info, fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var problem string
	if err := db.QueryRowContext(ctx, `PRAGMA integrity_check(1)`).Scan(&problem); err != nil {
		return info, fmt.Errorf("%w: %s: integrity check: %w", ErrNotBackup, path, err)
	}
	if problem != "ok" {
		return info, fmt.Errorf("%w: %s fails the integrity check: %s", ErrNotBackup, path, problem)
	}
	for _, table := range []string{"goose_db_version", "accounts", "ledger"} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`,
			table).Scan(&n); err != nil {
			return info, fmt.Errorf("%s: %w", path, err)
		}
		if n == 0 {
			return info, fmt.Errorf("%w: %s has no %s table, so it is not a svc database", ErrNotBackup, path, table)
		}
	}
	if err := db.QueryRowContext(ctx, `SELECT IFNULL(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).
		Scan(&info.SchemaVersion); err != nil {
		return info, fmt.Errorf("%s: schema version: %w", path, err)
	}
	latest, err := LatestSchemaVersion()
	if err != nil {
		return info, err
	}
	if info.SchemaVersion > latest {
		return info, fmt.Errorf("%w: %s has schema version %d, newer than this binary's %d; use the svc release that wrote it",
			ErrNotBackup, path, info.SchemaVersion, latest)
	}
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts`).Scan(&info.Accounts); err != nil {
		return info, fmt.Errorf("%s: count accounts: %w", path, err)
	}
	return info, nil
}

// LatestSchemaVersion is the version of the newest migration this binary carries.
func LatestSchemaVersion() (int64, error) {
	latest := int64(0)
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	for _, e := range entries {
		v, err := goose.NumericComponent(e.Name())
		if err != nil {
			return 0, fmt.Errorf("migration %s: %w", e.Name(), err)
		}
		latest = max(latest, v)
	}
	for _, m := range goMigrations {
		latest = max(latest, m.Version)
	}
	return latest, nil
}

// RestoreInfo describes a restored data directory.
type RestoreInfo struct {
	FileInfo
	Dir         string
	FromVersion int64 // the backup's schema version; SchemaVersion is the version after migrating
}

// Restore copies the svc database at from into dir, which must be missing or empty
// (ErrNotEmpty; a file system's lost+found does not count), checks the copy with Verify and
// opens it once, which applies the migrations of this binary that it lacks. The copy is made
// under a temporary name and renamed into place only once it passed, so a failed restore
// leaves no database behind.
func Restore(ctx context.Context, from, dir string) (RestoreInfo, error) {
	out := RestoreInfo{Dir: dir}
	st, err := os.Stat(from)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrNotBackup, err)
	}
	if !st.Mode().IsRegular() {
		return out, fmt.Errorf("%w: %s is not a regular file", ErrNotBackup, from)
	}
	created, err := prepareEmptyDir(dir)
	if err != nil {
		return out, err
	}
	dest := filepath.Join(dir, FileName)
	tmp := dest + ".restoring"
	ok := false
	defer func() {
		if !ok {
			os.Remove(tmp)
			if created {
				os.Remove(dir) // only when still empty
			}
		}
	}()
	if err := copyFile(from, tmp); err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	info, err := Verify(ctx, tmp)
	if err != nil {
		return out, err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	ok = true
	if err := syncDir(dir); err != nil {
		return out, fmt.Errorf("restore: %w", err)
	}
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		return out, fmt.Errorf("restore: open the restored database: %w", err)
	}
	defer s.Close()
	out.FileInfo, out.FromVersion = info, info.SchemaVersion
	out.Path = dest
	if err := s.r.QueryRowContext(ctx, `SELECT IFNULL(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).
		Scan(&out.SchemaVersion); err != nil {
		return out, fmt.Errorf("restore: schema version: %w", err)
	}
	return out, nil
}

// prepareEmptyDir makes sure dir exists and is empty, and reports whether it created it.
func prepareEmptyDir(dir string) (bool, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return false, fmt.Errorf("data directory %s is %w: it is a file", dir, ErrNotEmpty)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return false, fmt.Errorf("restore: create %s: %w", dir, err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("restore: %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.Name() != "lost+found" {
			return false, fmt.Errorf("data directory %s is %w (it holds %s); restore only into an empty or new directory",
				dir, ErrNotEmpty, e.Name())
		}
	}
	return false, nil
}

// copyFile copies from to a new file to (which must not exist) and syncs it.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a new name in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// fileDSN is the data source name of a single database file outside Open's pools: mode is
// SQLite's URI mode (ro, rw), immutable promises SQLite that nothing else changes the file
// (no locks, no -wal or -shm files), and busy is how long to wait for another process.
func fileDSN(path, mode string, immutable bool, busy time.Duration) string {
	q := url.Values{}
	q.Set("mode", mode)
	if immutable {
		q.Set("immutable", "1")
	}
	if busy > 0 {
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	}
	return "file:" + uriEscaper.Replace(path) + "?" + q.Encode()
}

// uriEscaper escapes what would end or garble the path of a file: URI (SQLite decodes %XX).
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
