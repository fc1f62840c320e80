package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// checkpointEvery is how many group commits of turns pass between two checkpoints: about a
// thousand WAL frames under load, SQLite's own default.
const checkpointEvery = 32

// writerAutoCheckpoint is the writer's own checkpoint threshold in WAL frames, a net under
// the checkpointer for writes that are not turns (imports, crawls): above SQLite's default,
// so that under a load of turns the checkpointer comes first.
const writerAutoCheckpoint = 4000

// checkpointer copies the WAL into the database from a connection of its own. SQLite
// checkpoints inside the commit that crossed its threshold, on the writer's connection: the
// copy and its two fsyncs then held up every turn waiting for the writer (a tenth of the
// writer's time on cache hits under wrk -c32, most of it waiting on the disk). A PASSIVE
// checkpoint runs beside the writer instead; once it has copied every frame, the writer
// starts the WAL over at its next transaction, as it would after its own.
type checkpointer struct {
	db   *sql.DB
	kick chan struct{}
	done chan struct{}
}

func newCheckpointer(path string, pragmas []string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn(path, pragmas, "deferred"))
	if err != nil {
		return nil, fmt.Errorf("open checkpointer: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// request asks for a checkpoint without waiting for it; requests made while one runs are
// one.
func (c *checkpointer) request() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for range c.kick {
		// A failure (the database busy with another checkpoint, a full disk) leaves the WAL
		// to the next request and to the writer's own threshold, so it is not reported.
		_, _ = c.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
	}
}

// close stops the checkpointer after the checkpoint it is running.
func (c *checkpointer) close() error {
	close(c.kick)
	<-c.done
	return c.db.Close()
}
