package cli

import (
	"context"
	"strings"
	"time"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/store"
)

// accountJSON is how commands print an account: money in USD, 0 daily answers as null
// (unlimited).
type accountJSON struct {
	AccountID      int64    `json:"account_id"`
	Name           string   `json:"name"`
	Email          string   `json:"email"`
	Plan           string   `json:"plan"`
	Lang           string   `json:"lang"`
	Balance        float64  `json:"balance"`
	SalesMode      bool     `json:"sales_mode"`
	Tone           toneJSON `json:"tone"`
	SendRatePerMin int      `json:"send_rate_per_min"`
	MarketingRate  int      `json:"marketing_rate_per_min"`
	IntelRate      int      `json:"intelligence_rate_per_min"`
	DailyAnswers   *int     `json:"daily_answers"`
	InputPerM      float64  `json:"input_per_m_usd"`
	OutputPerM     float64  `json:"output_per_m_usd"`
	CreatedAt      string   `json:"created_at"`
	UpdatedAt      string   `json:"updated_at"`
}

type toneJSON struct {
	Preset  string   `json:"preset"`
	Custom  string   `json:"custom"`
	Presets []string `json:"presets,omitempty"`
}

func toAccountJSON(a store.Account) accountJSON {
	out := accountJSON{AccountID: a.ID, Name: a.Name, Email: a.Email, Plan: a.Plan, Lang: a.Lang,
		Balance: billing.USD(a.BalanceMicro), SalesMode: a.SalesMode, Tone: toneJSON{Preset: a.TonePreset, Custom: a.ToneCustom},
		SendRatePerMin: a.SendRatePerMin, MarketingRate: a.MarketingRatePerMin, IntelRate: a.IntelligenceRatePerMin,
		InputPerM: billing.USD(a.InputRate), OutputPerM: billing.USD(a.OutputRate),
		CreatedAt: a.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: a.UpdatedAt.UTC().Format(time.RFC3339)}
	if a.DailyAnswers > 0 {
		n := a.DailyAnswers
		out.DailyAnswers = &n
	}
	return out
}

// settingsFlags registers the flags shared by account create and update.
type settingsFlags struct {
	name, email, plan, lang, balance, salesMode string
	inputPerM, outputPerM                       string
	sendRate, dailyAnswers                      int
	marketingRate, intelRate                    int
}

func (f *settingsFlags) register(c *command, withBalance bool) {
	c.fs.StringVar(&f.name, "name", "", "account name")
	c.fs.StringVar(&f.email, "email", "", "owner's e-mail address")
	c.fs.StringVar(&f.plan, "plan", "", "starter, growth, scale or custom")
	c.fs.StringVar(&f.lang, "lang", "", "account language: tr, en or de")
	c.fs.IntVar(&f.sendRate, "send-rate-per-min", 0, "sends a minute per key (default 15)")
	c.fs.IntVar(&f.marketingRate, "marketing-rate-per-min", 0, "marketingGenerate calls a minute (default 10)")
	c.fs.IntVar(&f.intelRate, "intelligence-rate-per-min", 0, "Intelligence API calls a minute (default 60)")
	c.fs.IntVar(&f.dailyAnswers, "daily-answers", 0, "daily unique AI answers; 0 = unlimited (default by plan)")
	c.fs.StringVar(&f.salesMode, "sales-mode", "", "on or off (default on)")
	c.fs.StringVar(&f.inputPerM, "input-per-m-usd", "", "price of 1M input tokens in USD (default 3.00)")
	c.fs.StringVar(&f.outputPerM, "output-per-m-usd", "", "price of 1M output tokens in USD (default 25.00)")
	if withBalance {
		c.fs.StringVar(&f.balance, "balance-usd", "", "opening balance in USD")
	}
}

func (f *settingsFlags) settings(c *command) (account.Settings, error) {
	var s account.Settings
	if c.set("name") {
		s.Name = &f.name
	}
	if c.set("email") {
		s.Email = &f.email
	}
	if c.set("plan") {
		s.Plan = &f.plan
	}
	if c.set("lang") {
		s.Lang = &f.lang
	}
	if c.set("send-rate-per-min") {
		s.SendRatePerMin = &f.sendRate
	}
	if c.set("marketing-rate-per-min") {
		s.MarketingRatePerMin = &f.marketingRate
	}
	if c.set("intelligence-rate-per-min") {
		s.IntelligenceRatePerMin = &f.intelRate
	}
	if c.set("daily-answers") {
		s.DailyAnswers = &f.dailyAnswers
	}
	if c.set("sales-mode") {
		var on bool
		switch f.salesMode {
		case "on":
			on = true
		case "off":
		default:
			return s, usagef("--sales-mode must be on or off")
		}
		s.SalesMode = &on
	}
	for _, r := range []struct {
		flag, value string
		to          **int64
	}{{"input-per-m-usd", f.inputPerM, &s.InputRate}, {"output-per-m-usd", f.outputPerM, &s.OutputRate}} {
		if !c.set(r.flag) {
			continue
		}
		m, err := billing.ParseUSD(r.value)
		if err != nil {
			return s, usagef("--%s: %v", r.flag, err)
		}
		*r.to = &m
	}
	if c.set("balance-usd") {
		m, err := billing.ParseUSD(f.balance)
		if err != nil {
			return s, usagef("--balance-usd: %v", err)
		}
		s.BalanceMicro = &m
	}
	return s, nil
}

func cmdAccountCreate(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("account create", env)
	if err != nil {
		return err
	}
	var f settingsFlags
	f.register(c, true)
	if err := c.noPositional(args); err != nil {
		return err
	}
	if !c.set("name") {
		return usagef("account create: --name is required")
	}
	set, err := f.settings(c)
	if err != nil {
		return err
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	a, key, err := account.New(st, nil).Create(ctx, set)
	if err != nil {
		return err
	}
	return c.print(map[string]any{"account_id": a.ID, "api_key": key})
}

func cmdAccountUpdate(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("account update", env)
	if err != nil {
		return err
	}
	var f settingsFlags
	f.register(c, false)
	id := c.accountFlag()
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	set, err := f.settings(c)
	if err != nil {
		return err
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := account.New(st, nil).Update(ctx, *id, set)
	if err != nil {
		return err
	}
	return c.print(toAccountJSON(a))
}

func cmdAccountShow(ctx context.Context, args []string, env Env) error {
	c, st, id, err := accountCommand(ctx, "account show", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := account.New(st, nil).Get(ctx, id)
	if err != nil {
		return err
	}
	return c.print(toAccountJSON(a))
}

func cmdKeyRotate(ctx context.Context, args []string, env Env) error {
	c, st, id, err := accountCommand(ctx, "key rotate", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	key, err := account.New(st, nil).RotateKey(ctx, id)
	if err != nil {
		return err
	}
	return c.print(map[string]string{"api_key": key})
}

func cmdBalanceAdd(ctx context.Context, args []string, env Env) error {
	return balanceMove(ctx, "balance add", args, env)
}

// cmdBalanceDeduct takes money back (a refund paid out another way, a top-up entered twice):
// its own command, with a reason kept in the ledger, so that a stray minus sign on `balance
// add` cannot do it.
func cmdBalanceDeduct(ctx context.Context, args []string, env Env) error {
	return balanceMove(ctx, "balance deduct", args, env)
}

// maxReasonLen bounds a deduction's reason, which the ledger (and the dashboard's billing
// page) shows with the row.
const maxReasonLen = 200

// balanceMove runs balance add or balance deduct: --usd is a positive amount either way.
func balanceMove(ctx context.Context, name string, args []string, env Env) error {
	c, err := newCommand(name, env)
	if err != nil {
		return err
	}
	deduct := name == "balance deduct"
	id := c.accountFlag()
	help := "amount in USD to add (positive, at most 6 decimals)"
	if deduct {
		help = "amount in USD to take back (positive, at most 6 decimals)"
	}
	amount := c.fs.String("usd", "", help)
	var reason *string
	if deduct {
		reason = c.fs.String("reason", "", "why the money is taken back; kept in the ledger")
	}
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if !c.set("usd") {
		return usagef("%s: --usd X is required", name)
	}
	micro, err := billing.ParseUSD(*amount)
	if err != nil {
		return usagef("%s: --usd: %v", name, err)
	}
	switch {
	case micro <= 0 && !deduct:
		return usagef("balance add: --usd must be above zero, not %s; to take money back use 'svc balance deduct --account ID --usd X --reason TEXT'",
			strings.TrimSpace(*amount))
	case micro <= 0:
		return usagef("balance deduct: --usd must be above zero, not %s (it is the amount taken back)", strings.TrimSpace(*amount))
	}
	note := store.LedgerNoteBalanceAdd
	if deduct {
		if strings.TrimSpace(*reason) == "" {
			return usagef("balance deduct: --reason TEXT is required; it is kept in the ledger")
		}
		if len([]rune(*reason)) > maxReasonLen {
			return usagef("balance deduct: --reason may be at most %d characters", maxReasonLen)
		}
		micro, note = -micro, store.LedgerNoteDeduct+oneLine(*reason)
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	bal, err := account.New(st, nil).AddBalance(ctx, *id, micro, note)
	if err != nil {
		return err
	}
	return c.print(map[string]float64{"balance": billing.USD(bal)})
}

func cmdToneSet(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("tone set", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	preset := c.fs.String("preset", "", "professional, warm or energetic")
	custom := c.fs.String("custom", "", "optional style note (at most 500 characters)")
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if !c.set("preset") {
		return usagef("tone set: --preset is required")
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := account.New(st, nil).Update(ctx, *id, account.Settings{TonePreset: preset, ToneCustom: custom})
	if err != nil {
		return err
	}
	return c.print(toneJSON{Preset: a.TonePreset, Custom: a.ToneCustom, Presets: account.TonePresets})
}

// accountCommand sets up a command whose only flag is --account and that acts on that
// existing account (see openForAccount): it returns the command, the open store, which the
// caller closes, and the account's id.
func accountCommand(ctx context.Context, name string, args []string, env Env) (*command, store.Store, int64, error) {
	c, err := newCommand(name, env)
	if err != nil {
		return nil, nil, 0, err
	}
	id := c.accountFlag()
	st, err := c.openForAccount(ctx, args, id)
	if err != nil {
		return nil, nil, 0, err
	}
	return c, st, *id, nil
}

// openForAccount finishes the setup of a command that acts on one existing account: it parses
// args (no positional arguments), requires --account, opens the store and checks that the
// account exists, so every such command answers a missing account the same way.
func (c *command) openForAccount(ctx context.Context, args []string, id *int64) (store.Store, error) {
	if err := c.parseForAccount(args, id); err != nil {
		return nil, err
	}
	return c.openAccount(ctx, *id)
}

// parseForAccount parses args (no positional arguments) and requires --account.
func (c *command) parseForAccount(args []string, id *int64) error {
	if err := c.noPositional(args); err != nil {
		return err
	}
	return c.requireAccount(*id)
}

// openAccount opens the store once the flags are parsed and checks that the account exists
// (exit 2 when not).
func (c *command) openAccount(ctx context.Context, id int64) (store.Store, error) {
	st, err := c.openStore(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := account.New(st, nil).Get(ctx, id); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func (c *command) accountFlag() *int64 {
	return c.fs.Int64("account", 0, "account id")
}

func (c *command) requireAccount(id int64) error {
	if id <= 0 {
		return usagef("%s: --account ID is required", c.name)
	}
	return nil
}

func (c *command) noPositional(args []string) error {
	pos, err := c.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q", c.name, pos[0])
	}
	return nil
}
