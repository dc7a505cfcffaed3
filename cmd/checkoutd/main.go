// Command checkoutd is the checkout service: serve, migrate, shop, demo and secrets.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
)

const usage = `usage:
  checkoutd serve [--no-migrate]
  checkoutd migrate
  checkoutd shop create --identifier ID [--name NAME] [--domain DOMAIN] [--currency USD]
  checkoutd shop token --identifier ID
  checkoutd demo          create (idempotently) the demo shop and print a fresh token for it
  checkoutd secrets rotate  re-seal every stored secret under CHECKOUT_SECRET_KEY

environment:
  CHECKOUT_ADDR          listen address (default 127.0.0.1:8080)
  CHECKOUT_DATABASE_URL  file:PATH (SQLite, default file:checkout.db) or postgres://...
  CHECKOUT_SECRET_KEY    32 random bytes in base64 that seal the shops' secrets (required with
                         PostgreSQL; with SQLite, a key file beside the database is made when unset)
  CHECKOUT_SECRET_KEY_PREVIOUS  older keys, comma-separated, still read until secrets rotate
  CHECKOUT_LOG_FORMAT    json for JSON logs (default text)
  CHECKOUT_LOG_LEVEL     debug, info, warn or error (default info)
  CHECKOUT_SMTP_URL      smtp://user:password@host:port?from=... for customer emails
  CHECKOUT_WEBHOOK_RETRY_BASE    wait before a failed webhook's first retry, doubling after (default 10s)
  CHECKOUT_WEBHOOK_TIMEOUT       how long one webhook callback may take (default 10s)
  CHECKOUT_WEBHOOK_MAX_ATTEMPTS  attempts before a delivery is failed (default 18, about 3 days)
  CHECKOUT_JOB_POLL_INTERVAL     how often idle workers look for new jobs (default 100ms)
  GOGC                   Go's garbage-collector target (serve uses 400 when unset)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkoutd:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	slog.SetDefault(newLogger(stderr))
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve", "shop", "demo", "secrets":
		current, previous := secretKeysFromEnv()
		if err := installSecretKeys(envOr("CHECKOUT_DATABASE_URL", "file:checkout.db"), current, previous); err != nil {
			return err
		}
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:])
	case "migrate":
		db, err := openDatabase()
		if err != nil {
			return err
		}
		defer db.Close()
		return db.Migrate(ctx)
	case "shop":
		return shopCommand(ctx, args[1:], stdout)
	case "demo":
		return demo(ctx, stdout)
	case "secrets":
		return secretsCommand(ctx, args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func newLogger(w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(envOr("CHECKOUT_LOG_LEVEL", "info"))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if os.Getenv("CHECKOUT_LOG_FORMAT") == "json" {
		return slog.New(platform.RequestIDHandler(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(platform.RequestIDHandler(slog.NewTextHandler(w, opts)))
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func openDatabase() (*platform.Database, error) {
	return platform.OpenDatabase(envOr("CHECKOUT_DATABASE_URL", "file:checkout.db"))
}

func shopCommand(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("shop needs a subcommand: create or token")
	}
	fs := flag.NewFlagSet("shop "+args[0], flag.ContinueOnError)
	identifier := fs.String("identifier", "", "shop identifier")
	name := fs.String("name", "", "shop name")
	domain := fs.String("domain", "", "shop domain")
	currency := fs.String("currency", "USD", "shop currency (ISO 4217)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *identifier == "" {
		return errors.New("--identifier is required")
	}
	db, err := openDatabase()
	if err != nil {
		return err
	}
	defer db.Close()
	svc := service.New(db)
	var token string
	switch args[0] {
	case "create":
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: *identifier, Name: *name, Domain: *domain, Currency: *currency})
		if err != nil {
			return err
		}
		token = created.AccessToken
	case "token":
		if token, err = svc.Shops.IssueAccessToken(ctx, *identifier); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown shop subcommand %q", args[0])
	}
	return json.NewEncoder(stdout).Encode(map[string]string{"shop_identifier": *identifier, "access_token": token})
}
