package cli

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	"svc/internal/store/sqlite"
)

// cmdBackup runs `svc backup --out FILE`: a consistent copy of the embedded database, taken
// while `svc serve` goes on writing (sqlite.Backup).
func cmdBackup(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("backup", env)
	if err != nil {
		return err
	}
	c.embeddedOnly = true
	out := c.fs.String("out", "", "file to write the backup to; it must not exist")
	if err := c.noPositional(args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("backup: --out FILE is required")
	}
	start := time.Now()
	info, err := sqlite.Backup(ctx, c.cfg.DataDir, *out)
	switch {
	case errors.Is(err, sqlite.ErrNoDatabase):
		return usagef("backup: there is no svc database in %s (set --data or SVC_DATA)", c.cfg.DataDir)
	case errors.Is(err, sqlite.ErrExists):
		return usagef("backup: %s already exists; choose a new file name", *out)
	case err != nil:
		return err
	}
	return c.print(map[string]any{"backup": info.Path, "bytes": info.Bytes, "schema_version": info.SchemaVersion,
		"accounts": info.Accounts, "data": absPath(c.cfg.DataDir), "duration_ms": time.Since(start).Milliseconds()})
}

// cmdRestore runs `svc restore --from FILE`: the backup, checked, becomes the database of an
// empty data directory, migrated to this binary's schema (sqlite.Restore).
func cmdRestore(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("restore", env)
	if err != nil {
		return err
	}
	c.embeddedOnly = true
	from := c.fs.String("from", "", "backup file written by svc backup (or a copy of a stopped server's svc.db)")
	if err := c.noPositional(args); err != nil {
		return err
	}
	if *from == "" {
		return usagef("restore: --from FILE is required")
	}
	info, err := sqlite.Restore(ctx, *from, c.cfg.DataDir)
	switch {
	case errors.Is(err, sqlite.ErrNotBackup), errors.Is(err, sqlite.ErrNotEmpty):
		return usagef("restore: %v", err)
	case err != nil:
		return err
	}
	return c.print(map[string]any{"restored": absPath(*from), "data": absPath(info.Dir), "database": absPath(info.Path),
		"bytes": info.Bytes, "from_schema_version": info.FromVersion, "schema_version": info.SchemaVersion,
		"accounts": info.Accounts})
}

// absPath makes a path absolute for output, so the JSON says exactly which file was meant.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
