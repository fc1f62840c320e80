// Package cli is the `svc` command line of DECISIONS.md: every command prints exactly one JSON
// object on stdout and its human messages on stderr; a bad argument exits 2 with a one-line
// reason. Commands open the same data directory as a running `svc serve` and work alongside it.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"svc/internal/config"
	"svc/internal/errs"
	"svc/internal/redact"
	"svc/internal/store"
	"svc/internal/store/postgres"
	"svc/internal/store/sqlite"
)

// Env is the process environment a command runs in.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError is a bad argument: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

const usage = `usage: svc <command> [flags]

commands:
  serve                       serve the API (--addr, --data)
  demo                        seed the demo account and serve
  account create|update|show  manage accounts
  account delete              delete an account and all it owns; its ledger is kept (--account, --confirm NAME)
  key rotate                  issue a new secret key, revoking the old one
  balance add|deduct          top up an account, or take money back (--account, --usd, --reason)
  tone set                    set an account's tone
  kb import FILE              import a JSON Lines knowledge base, a document (PDF, DOCX, ODT, XLSX, ODS, CSV,
                              Markdown, text, HTML; --lang, --title, --url) or a products spreadsheet (--products)
  kb reindex                  embed the KB's chunks not yet embedded with SVC_EMBED_MODEL, now (--account)
  site add|list               the websites an account's KB is crawled from
  crawl URL                   crawl a site into the KB (--account, --site, --max-pages, --allow-private)
  review list                 answers rated not_helpful
  review answer ID --text T   correct a flagged answer; it becomes a curated Q&A entry
  tests import FILE           add questions to the owner's test set from JSON Lines (--account); a bad line is refused by number
  tests run                   ask every test as a visitor would, nothing stored; pass/fail per question (--account)
  tests list                  the account's tests (--account)
  user add|list|remove        dashboard users (--account, --email, --role, --password-stdin, --user)
  visitor export|delete       a widget visitor's data: print it, or delete it (--account, --visitor UUID)
  eval xquad                  measure answer quality on XQuAD
  eval site                   ask a question file against an account's KB; hit rates and misses (--account, --questions, --lang, --replies)
  ledger check                verify balances against the ledger and reservations (--account)
  backup --out FILE           copy the database consistently while serve runs
  restore --from FILE         restore a backup into an empty data directory
  store copy --from S --to D  copy every record into an empty store (data directory or postgres:// URL), verified
  version                     the build: version, VCS revision, Go version
  bench                       speed and memory of this build against a bare handler (--work DIR, --markdown, --only LIST)
  health                      probe a running server's /readyz; exit 0 when ready (--addr, --url)
Run 'svc <command> -h' for a command's flags.`

// Run runs one command and returns the process exit code.
func Run(ctx context.Context, args []string, env Env) int {
	err := run(ctx, args, env)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(env.Stderr, "svc: "+oneLine(ue.msg))
		return exitUsage
	}
	if e, ok := errs.As(err); ok && (e.Kind == errs.BadRequest || e.Kind == errs.NotFound) {
		fmt.Fprintln(env.Stderr, "svc: "+oneLine(e.Safe))
		return exitUsage
	}
	fmt.Fprintln(env.Stderr, "svc: "+oneLine(err.Error()))
	return exitError
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// commandFunc runs one command with its remaining arguments.
type commandFunc func(ctx context.Context, args []string, env Env) error

// commands maps "command" or "command subcommand" to its implementation.
var commands = map[string]commandFunc{
	"serve":          func(ctx context.Context, a []string, e Env) error { return cmdServe(ctx, a, e, false) },
	"demo":           func(ctx context.Context, a []string, e Env) error { return cmdServe(ctx, a, e, true) },
	"account create": cmdAccountCreate,
	"account update": cmdAccountUpdate,
	"account show":   cmdAccountShow,
	"account delete": cmdAccountDelete,
	"key rotate":     cmdKeyRotate,
	"balance add":    cmdBalanceAdd,
	"balance deduct": cmdBalanceDeduct,
	"ledger check":   cmdLedgerCheck,
	"backup":         cmdBackup,
	"restore":        cmdRestore,
	"store copy":     cmdStoreCopy,
	"version":        cmdVersion,
	"bench":          cmdBench,
	"tone set":       cmdToneSet,
	"kb import":      cmdKBImport,
	"kb reindex":     cmdKBReindex,
	"site add":       cmdSiteAdd,
	"site list":      cmdSiteList,
	"crawl":          cmdCrawl,
	"review list":    cmdReviewList,
	"review answer":  cmdReviewAnswer,
	"tests import":   cmdTestsImport,
	"tests run":      cmdTestsRun,
	"tests list":     cmdTestsList,
	"user add":       cmdUserAdd,
	"user list":      cmdUserList,
	"user remove":    cmdUserRemove,
	"visitor export": cmdVisitorExport,
	"visitor delete": cmdVisitorDelete,
	"eval xquad":     cmdEvalXQuAD,
	"eval site":      cmdEvalSite,
	"health":         cmdHealth,
}

// hasSubcommands reports whether name is a command group such as "account".
func hasSubcommands(name string) bool {
	for k := range commands {
		if strings.HasPrefix(k, name+" ") {
			return true
		}
	}
	return false
}

func run(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, usage)
		return usagef("a command is required")
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprintln(env.Stderr, usage)
		return nil
	}
	if fn, ok := commands[args[0]]; ok {
		return fn(ctx, args[1:], env)
	}
	if !hasSubcommands(args[0]) {
		return usagef("unknown command %q; run 'svc help' for the list", args[0])
	}
	if len(args) < 2 || strings.HasPrefix(args[1], "-") {
		return usagef("%s needs a subcommand", args[0])
	}
	fn, ok := commands[args[0]+" "+args[1]]
	if !ok {
		return usagef("unknown %s subcommand %q", args[0], args[1])
	}
	return fn(ctx, args[2:], env)
}

// command is the common setup of a subcommand: its flags, the configuration and a logger.
type command struct {
	name string
	fs   *flag.FlagSet
	cfg  config.Config
	env  Env
	// embeddedOnly marks a command that works on the SQLite file itself (backup, restore):
	// with a PostgreSQL URL it is refused with a reason of its own.
	embeddedOnly bool
}

func newCommand(name string, env Env) (*command, error) {
	cfg, err := config.Load(env.Getenv)
	if err != nil {
		return nil, usagef("%v", err)
	}
	c := &command{name: name, fs: flag.NewFlagSet("svc "+name, flag.ContinueOnError), cfg: cfg, env: env}
	// The flag package would print its error and every flag on a parse error; Run prints the
	// one-line reason instead, and parse prints the flags only when -h asks for them.
	c.fs.SetOutput(io.Discard)
	c.cfg.StoreFlags(c.fs)
	return c, nil
}

// parse parses flags and positional arguments in any order, and validates the configuration.
func (c *command) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.printFlags()
				return nil, err
			}
			return nil, usagef("%s: %v", c.name, err)
		}
		rest := c.fs.Args()
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	if c.embeddedOnly && c.cfg.DatabaseURL != "" {
		return nil, usagef("%s applies to the embedded SQLite store only; for PostgreSQL (--database-url, SVC_DATABASE_URL) use pg_dump and pg_restore", c.name)
	}
	if err := c.cfg.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	return pos, nil
}

// printFlags answers -h: the command's flags on stderr.
func (c *command) printFlags() {
	fmt.Fprintf(c.env.Stderr, "usage: svc %s [flags]\n", c.name)
	c.fs.SetOutput(c.env.Stderr)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
}

func (c *command) set(name string) bool {
	found := false
	c.fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

// logger is every command's log; its handler redacts anything shaped like a secret (keys,
// tokens, link secrets) that a request or a crawled page put into a value.
func (c *command) logger() *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.cfg.LogLevel}
	if c.cfg.LogFormat == "json" {
		return slog.New(redact.NewHandler(slog.NewJSONHandler(c.env.Stderr, opts)))
	}
	return slog.New(redact.NewHandler(slog.NewTextHandler(c.env.Stderr, opts)))
}

// openStore opens the PostgreSQL store when a database URL is set (several processes, on
// several machines, share it), else the embedded SQLite store in the data directory.
func (c *command) openStore(ctx context.Context) (store.Store, error) {
	if c.cfg.DatabaseURL != "" {
		st, err := postgres.Open(ctx, c.cfg.DatabaseURL, postgres.Options{})
		if err != nil {
			return nil, fmt.Errorf("open PostgreSQL store: %w", err)
		}
		return st, nil
	}
	st, err := sqlite.Open(ctx, c.cfg.DataDir, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("open store in %s: %w", c.cfg.DataDir, err)
	}
	return st, nil
}

// print writes the command's one JSON object to stdout.
func (c *command) print(v any) error {
	enc := json.NewEncoder(c.env.Stdout)
	return enc.Encode(v)
}
