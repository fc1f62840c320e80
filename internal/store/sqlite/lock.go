package sqlite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrServing is returned by LockServe when another process serves the data directory.
var ErrServing = errors.New("another svc serve is using this data directory")

// LockServe takes the data directory's serve lock: an exclusive, non-blocking flock on
// dir/serve.lock, held until release is called or the process ends (a kill -9 included:
// the kernel drops the lock with the process). One serve per data directory is what lets
// serve treat every reservation it finds at start-up as left by a process that died, and it
// keeps the in-process limits from being split between two servers. Commands other than
// serve never take it, so they keep working beside a running server.
func LockServe(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, "serve.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := strings.TrimSpace(string(holder)); pid != "" {
				return nil, fmt.Errorf("%w (%s, pid %s)", ErrServing, dir, pid)
			}
			return nil, fmt.Errorf("%w (%s)", ErrServing, dir)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The pid is for the message above only; the lock is the flock, not the file's content.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// Serving reports whether a process holds dir's serve lock: whether a svc serve (or svc demo)
// runs on the data directory. It probes the lock with a shared, non-blocking flock that it
// gives back at once, so it never waits, and holds it only for that instant.
func Serving(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "serve.lock"))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
