-- +goose Up
-- Owner test sets (issue 26): an account's tests, the runs that ask them through the answer
-- pipeline, and each run's result per test.
-- A test is unique per account, language and key (its question folded, testsets.Key), so
-- an import or a second "add as test" of the same question does not repeat it. expect is a
-- JSON array of substrings.
CREATE TABLE test_cases (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    question   TEXT    NOT NULL,
    lang       TEXT    NOT NULL,
    qkey       TEXT    NOT NULL,
    expect     TEXT    NOT NULL DEFAULT '[]',
    answerable INTEGER NOT NULL DEFAULT 1,
    product    TEXT    NOT NULL DEFAULT '',
    origin     TEXT    NOT NULL,
    origin_ref TEXT    NOT NULL DEFAULT '',
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    UNIQUE (account_id, lang, qkey)
);

-- A run's counts move with its results (one transaction); heartbeat_at moves while its
-- process is alive, so a run left "running" by a crash is told by its lapsed heartbeat.
-- At most one run of an account is running (test_runs_running).
CREATE TABLE test_runs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    trigger_kind TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    total        INTEGER NOT NULL DEFAULT 0,
    done         INTEGER NOT NULL DEFAULT 0,
    passed       INTEGER NOT NULL DEFAULT 0,
    failed       INTEGER NOT NULL DEFAULT 0,
    prev_run_id  INTEGER NOT NULL DEFAULT 0,
    broken       INTEGER NOT NULL DEFAULT 0,
    fixed        INTEGER NOT NULL DEFAULT 0,
    regressed    INTEGER NOT NULL DEFAULT 0,
    kb_version   INTEGER NOT NULL DEFAULT 0,
    cost_micro   INTEGER NOT NULL DEFAULT 0,
    error        TEXT    NOT NULL DEFAULT '',
    started_at   TEXT    NOT NULL,
    finished_at  TEXT    NOT NULL DEFAULT '',
    heartbeat_at TEXT    NOT NULL
);
CREATE INDEX test_runs_account ON test_runs (account_id, id);
CREATE UNIQUE INDEX test_runs_running ON test_runs (account_id) WHERE status = 'running';
CREATE INDEX test_runs_heartbeat ON test_runs (status, heartbeat_at);

-- A result keeps the test's question as it was asked (the test may be edited or deleted
-- since), so test_id has no foreign key; results go with their run.
CREATE TABLE test_results (
    run_id         INTEGER NOT NULL REFERENCES test_runs (id) ON DELETE CASCADE,
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    test_id        INTEGER NOT NULL,
    ord            INTEGER NOT NULL,
    question       TEXT    NOT NULL,
    lang           TEXT    NOT NULL,
    reply          TEXT    NOT NULL,
    source         TEXT    NOT NULL,
    low_confidence INTEGER NOT NULL,
    passed         INTEGER NOT NULL,
    reason         TEXT    NOT NULL DEFAULT '',
    products       TEXT    NOT NULL DEFAULT '[]',
    created_at     TEXT    NOT NULL,
    PRIMARY KEY (run_id, test_id)
);

-- +goose Down
DROP TABLE test_results;
DROP TABLE test_runs;
DROP TABLE test_cases;
