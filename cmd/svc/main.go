// Command svc is the service and its operator command line. All of it lives in internal/cli;
// this file only hands over the process's arguments, streams and environment.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"svc/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}
