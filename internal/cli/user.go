package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"svc/internal/store"
	"svc/internal/users"
)

// Dashboard users (DECISIONS.md "Dashboard"): `svc user add|list|remove`. Passwords are read
// from stdin, never from an argument, which other users of the machine could see.

// userService is the users domain on the command's store; the links it makes start with
// linkBase (user add's; "" for the commands that make none).
func (c *command) userService(st store.Store, linkBase string) *users.Service {
	return users.New(users.Deps{Store: st, PublicURL: linkBase, Log: c.logger()})
}

func cmdUserAdd(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("user add", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	email := c.fs.String("email", "", "the user's e-mail address (signs in with it)")
	role := c.fs.String("role", "owner", "owner or agent")
	fromStdin := c.fs.Bool("password-stdin", false, "read the password from the first line of stdin "+
		"(default: print a one-time invite link to set one)")
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if strings.TrimSpace(*email) == "" {
		return usagef("user add: --email is required")
	}
	var password string
	if *fromStdin {
		if password, err = readPasswordLine(env.Stdin); err != nil {
			return err
		}
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return err
	}
	defer st.Close()
	// The invite link, printed and mailed, must open on the server that serves the data.
	base, guessed := c.linkBase()
	u, link, err := c.userService(st, base).AddUser(ctx, *id, *email, *role, password)
	if err != nil {
		return err
	}
	out := map[string]any{"user_id": u.ID}
	if link != "" {
		out["invite_url"] = link
		if guessed {
			c.guessNotice()
		}
	}
	return c.print(out)
}

// readPasswordLine reads the first line of r without its line ending; the rest of r is
// left alone.
func readPasswordLine(r io.Reader) (string, error) {
	if r == nil {
		return "", usagef("user add: --password-stdin: nothing on stdin")
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", usagef("user add: --password-stdin: %v", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", usagef("user add: --password-stdin: the first line of stdin is empty")
	}
	return line, nil
}

// userJSON is a user as `user list` prints it; last_sign_in_at is null until the first
// sign-in.
type userJSON struct {
	UserID       int64   `json:"user_id"`
	Email        string  `json:"email"`
	Role         string  `json:"role"`
	CreatedAt    string  `json:"created_at"`
	LastSignInAt *string `json:"last_sign_in_at"`
}

func cmdUserList(ctx context.Context, args []string, env Env) error {
	c, st, id, err := accountCommand(ctx, "user list", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	us, err := c.userService(st, "").ListUsers(ctx, id)
	if err != nil {
		return err
	}
	out := make([]userJSON, 0, len(us))
	for _, u := range us {
		j := userJSON{UserID: u.ID, Email: u.Email, Role: u.Role, CreatedAt: u.CreatedAt.UTC().Format(time.RFC3339)}
		if !u.LastSignInAt.IsZero() {
			at := u.LastSignInAt.UTC().Format(time.RFC3339)
			j.LastSignInAt = &at
		}
		out = append(out, j)
	}
	return c.print(map[string]any{"users": out})
}

// cmdUserRemove removes a user; their sessions end with the removal, so a browser signed in
// as them is signed out on its next request, even while `svc serve` runs.
func cmdUserRemove(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("user remove", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	userID := c.fs.Int64("user", 0, "the user's id (see svc user list)")
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if *userID <= 0 {
		return usagef("user remove: --user ID is required")
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := c.userService(st, "").RemoveUser(ctx, *id, *userID); err != nil {
		return err
	}
	return c.print(map[string]any{"removed": true})
}
