package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"svc/internal/buildinfo"
)

// cmdVersion runs `svc version`: the build of this binary as one JSON object. It reads no
// configuration, so it answers even where the environment is not set up yet.
func cmdVersion(_ context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("svc version", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(env.Stderr, "usage: svc version\n\nPrints {\"version\",\"revision\",\"time\",\"modified\",\"go\",\"platform\"}; revision, time and modified only when the build was stamped from a VCS checkout.")
			return err
		}
		return usagef("version: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("version: unexpected argument %q", fs.Arg(0))
	}
	return json.NewEncoder(env.Stdout).Encode(buildinfo.Read())
}
