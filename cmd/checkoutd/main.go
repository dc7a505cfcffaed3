// Command checkoutd is the checkout service: serve, migrate, shop, demo, backup and the commands
// around them. `checkoutd --help` lists them with every setting.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"
)

// cli is the command line: the configuration, which every command shares, and the commands.
type cli struct {
	config

	ServeCmd   serveCmd   `cmd:"" name:"serve" help:"Serve the REST API, GraphQL and the admin console."`
	MigrateCmd migrateCmd `cmd:"" name:"migrate" help:"Apply pending migrations and exit."`
	ShopCmd    shopCmd    `cmd:"" name:"shop" help:"Create a shop, or issue another access token for one."`
	DemoCmd    demoCmd    `cmd:"" name:"demo" help:"Create the demo shop if missing and print a fresh token for it."`
	BackupCmd  backupCmd  `cmd:"" name:"backup" help:"Write a consistent copy of the live SQLite database to a file."`
	SecretsCmd secretsCmd `cmd:"" name:"secrets" help:"Manage the key that encrypts stored secrets."`
	ConfigCmd  configCmd  `cmd:"" name:"config" help:"Print the effective configuration, secrets masked."`
	VersionCmd versionCmd `cmd:"" name:"version" help:"Print the version and commit."`
}

const description = `checkoutd is a self-hosted checkout service.

Every setting is a flag, an environment variable, or its default, in that order. Go's own GOGC
is read too: serve uses 400 when it is unset.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkoutd:", err)
		os.Exit(exitStatus(err))
	}
}

// usageError is a command line or configuration no command could run with: exit status 2, as
// for a bad flag, where a failure while running is 1.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func exitStatus(err error) int {
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c cli
	parser, err := newParser(ctx, &c, stdout, stderr)
	if err != nil {
		return err
	}
	kctx, helped, err := parse(parser, args)
	if helped {
		return nil
	}
	if err != nil {
		return usageError{withHint(err)}
	}
	slog.SetDefault(c.logger(stderr))
	return kctx.Run()
}

// newParser binds what the commands' Run methods take: the context, the configuration and stdout.
func newParser(ctx context.Context, c *cli, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(c,
		kong.Name("checkoutd"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		// --help ends the parse through Exit; a panic stops kong from going on, and parse recovers it.
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		configVars,
		configGroups,
		kong.ConfigureHelp(kong.HelpOptions{WrapUpperBound: 100}),
		kong.ValueFormatter(helpValue),
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.Bind(&c.config),
		kong.BindTo(stdout, (*io.Writer)(nil)),
	)
}

// exitRequest is kong asking to end the process, after printing help.
type exitRequest int

func parse(parser *kong.Kong, args []string) (kctx *kong.Context, helped bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(exitRequest); !ok {
				panic(r)
			}
			kctx, helped, err = nil, true, nil
		}
	}()
	kctx, err = parser.Parse(args)
	return kctx, false, err
}

// withHint points a usage error at the help of the command it was in, in the same line.
func withHint(err error) error {
	command := "checkoutd"
	var perr *kong.ParseError
	if errors.As(err, &perr) && perr.Context != nil {
		if selected := perr.Context.Selected(); selected != nil {
			command += " " + selected.Path()
		}
	}
	return fmt.Errorf("%w (see %s --help)", err, command)
}

// helpValue is a flag's help with its environment variable and default.
func helpValue(v *kong.Value) string {
	var notes []string
	for _, env := range v.Tag.Envs {
		notes = append(notes, "$"+env)
	}
	if v.HasDefault && v.Default != "" {
		notes = append(notes, "default "+v.Default)
	}
	if len(notes) == 0 {
		return v.Help
	}
	return strings.TrimSuffix(v.Help, ".") + " (" + strings.Join(notes, ", ") + ")."
}

// migrateCmd applies the pending migrations, for operators who run them apart from serve.
type migrateCmd struct{}

func (migrateCmd) Run(ctx context.Context, cfg *config) error {
	db, err := cfg.openDatabase()
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Migrate(ctx)
}
