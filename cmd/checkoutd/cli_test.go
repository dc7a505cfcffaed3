package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with what checkoutd prints")

// model is the command line's grammar, as kong builds it.
func model(t *testing.T) *kong.Application {
	t.Helper()
	var c cli
	parser, err := newParser(context.Background(), &c, new(bytes.Buffer), new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	return parser.Model
}

// commandPaths are the command lines that have a help of their own: the bare command and
// every command and subcommand.
func commandPaths(t *testing.T) [][]string {
	paths := [][]string{nil}
	var walk func(n *kong.Node, prefix []string)
	walk = func(n *kong.Node, prefix []string) {
		for _, child := range n.Children {
			path := append(slices.Clone(prefix), child.Name)
			paths = append(paths, path)
			walk(child, path)
		}
	}
	walk(model(t).Node, nil)
	return paths
}

// helpFor runs checkoutd PATH --help as a user would, with a fixed width.
func helpFor(t *testing.T, path []string) string {
	t.Helper()
	t.Setenv("COLUMNS", "100")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append(slices.Clone(path), "--help"), &stdout, &stderr); err != nil {
		t.Fatalf("%v --help: %v", path, err)
	}
	if stderr.Len() != 0 {
		t.Fatalf("%v --help wrote to stderr: %s", path, stderr.String())
	}
	return stdout.String()
}

// Golden files hold each help as printed; go test ./cmd/checkoutd -run Help -update rewrites them.
func TestTheHelpOfEveryCommandIsAsRecorded(t *testing.T) {
	seen := map[string]bool{}
	for _, path := range commandPaths(t) {
		name := strings.Join(append([]string{"help"}, path...), "-") + ".golden"
		seen[name] = true
		got := helpFor(t, path)
		file := filepath.Join("testdata", name)
		if *update {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (go test ./cmd/checkoutd -run Help -update writes it)", err)
		}
		if got != string(want) {
			t.Errorf("checkoutd %s --help changed (-update records it):\n%s", strings.Join(path, " "), got)
		}
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "help*.golden"))
	for _, file := range golden {
		if !seen[filepath.Base(file)] {
			t.Errorf("%s is the help of no command: remove it", file)
		}
	}
}

func TestEveryHelpListsEveryCommandAndEverySettingWithItsVariableAndDefault(t *testing.T) {
	app := model(t)
	for _, path := range commandPaths(t) {
		help := strings.Join(strings.Fields(helpFor(t, path)), " ") // as one line, whatever the wrapping
		for _, f := range configFlags(app) {
			want := "--" + f.Name
			if f.Tag.Negatable != "" {
				want = "--[no-]" + f.Name
			}
			if !strings.Contains(help, want) || !strings.Contains(help, "$"+f.Tag.Envs[0]) {
				t.Errorf("checkoutd %s --help lacks %s or $%s", strings.Join(path, " "), want, f.Tag.Envs[0])
			}
			if f.HasDefault && f.Default != "" && !strings.Contains(help, "default "+f.Default) {
				t.Errorf("checkoutd %s --help lacks the default of --%s (%s)", strings.Join(path, " "), f.Name, f.Default)
			}
		}
	}
	help := helpFor(t, nil)
	for _, path := range commandPaths(t)[1:] {
		if !strings.Contains(help, strings.Join(path, " ")) {
			t.Errorf("checkoutd --help lacks the command %q", strings.Join(path, " "))
		}
	}
}

// parseConfig parses args as checkoutd would, with the environment of the test, and answers
// the configuration without running anything.
func parseConfig(t *testing.T, args ...string) (*config, error) {
	t.Helper()
	var c cli
	parser, err := newParser(context.Background(), &c, new(bytes.Buffer), new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	_, helped, err := parse(parser, args)
	if helped {
		t.Fatalf("%v printed help", args)
	}
	return &c.config, err
}

func TestAFlagOverridesItsVariableWhichOverridesTheDefault(t *testing.T) {
	t.Setenv("CHECKOUT_ADDR", "127.0.0.1:7000")
	t.Setenv("CHECKOUT_WEBHOOK_TIMEOUT", "3s")
	t.Setenv("CHECKOUT_MIGRATE", "true")
	cfg, err := parseConfig(t, "serve", "--addr", "127.0.0.1:7001", "--no-migrate")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Addr != "127.0.0.1:7001" || cfg.Migrate || cfg.WebhookTimeout.String() != "3s" || cfg.LogLevel != "info" || cfg.MetricsAddr != "127.0.0.1:9090" {
		t.Fatalf("%+v", cfg)
	}
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"--addr=127.0.0.1:7001", "config"}, &stdout, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`^CHECKOUT_ADDR=127\.0\.0\.1:7001 +# flag --addr$`,
		`^CHECKOUT_WEBHOOK_TIMEOUT=3s +# environment$`,
		`^CHECKOUT_WEBHOOK_RETRY_BASE=10s +# default$`,
		`^CHECKOUT_METRICS_ADDR=127\.0\.0\.1:9090 +# default$`,
	} {
		if !regexp.MustCompile("(?m)" + want).MatchString(stdout.String()) {
			t.Errorf("checkoutd config lacks %s:\n%s", want, stdout.String())
		}
	}
}

// A variable set to nothing counts: that is how CHECKOUT_METRICS_ADDR turns metrics off.
func TestAnEmptyVariableIsAValueNotTheDefault(t *testing.T) {
	t.Setenv("CHECKOUT_METRICS_ADDR", "")
	cfg, err := parseConfig(t, "config")
	if err != nil || cfg.MetricsAddr != "" {
		t.Fatalf("%q %v", cfg.MetricsAddr, err)
	}
}

func TestConfigPrintsEverySettingWithPasswordsAndKeysMasked(t *testing.T) {
	t.Setenv("CHECKOUT_DATABASE_URL", "postgres://app:db-hunter2@db.internal:5432/checkout?sslmode=require")
	t.Setenv("CHECKOUT_SMTP_URL", "smtp://mailer:mail-hunter2@smtp.example.com:587?from=shop@example.com")
	t.Setenv("CHECKOUT_SECRET_KEY", "a2V5LWh1bnRlcjItMzItYnl0ZXMtb2Yta2V5LW1hdGVyaWFsIQ==")
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"config"}, &stdout, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, secret := range []string{"hunter2", "a2V5LWh1bnRlcjI"} {
		if strings.Contains(out, secret) {
			t.Fatalf("checkoutd config shows a secret:\n%s", out)
		}
	}
	for _, want := range []string{
		"CHECKOUT_DATABASE_URL=postgres://app:xxxxx@db.internal:5432/checkout?sslmode=require",
		"CHECKOUT_SMTP_URL=smtp://mailer:xxxxx@smtp.example.com:587?from=shop@example.com",
		"CHECKOUT_SECRET_KEY=(set, masked)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("checkoutd config lacks %s:\n%s", want, out)
		}
	}
	for _, f := range configFlags(model(t)) {
		if !strings.Contains(out, f.Tag.Envs[0]+"=") {
			t.Errorf("checkoutd config lacks %s", f.Tag.Envs[0])
		}
	}
	if got := maskURL("postgres://db/checkout?user=app&password=db-hunter2"); strings.Contains(got, "hunter2") {
		t.Errorf("a password parameter is shown: %s", got)
	}
}

func TestTheIntrospectionSettingIsTrueOrFalse(t *testing.T) {
	for value, want := range map[string]bool{"true": true, "1": true, "false": false, "0": false} {
		t.Setenv("CHECKOUT_GRAPHQL_INTROSPECTION", value)
		if cfg, err := parseConfig(t, "serve"); err != nil || cfg.GraphQLIntrospection != want {
			t.Errorf("%q: %v %v, want %v", value, cfg.GraphQLIntrospection, err, want)
		}
	}
	os.Unsetenv("CHECKOUT_GRAPHQL_INTROSPECTION")
	if cfg, err := parseConfig(t, "serve"); err != nil || !cfg.GraphQLIntrospection {
		t.Errorf("unset: %v %v, want true", cfg.GraphQLIntrospection, err)
	}
	if cfg, err := parseConfig(t, "serve", "--no-graphql-introspection"); err != nil || cfg.GraphQLIntrospection {
		t.Errorf("--no-graphql-introspection: %v %v", cfg.GraphQLIntrospection, err)
	}
	t.Setenv("CHECKOUT_GRAPHQL_INTROSPECTION", "off")
	if _, err := parseConfig(t, "serve"); err == nil || !strings.Contains(err.Error(), "CHECKOUT_GRAPHQL_INTROSPECTION") {
		t.Fatalf("an unknown value: %v", err)
	}
}

func TestVersionPrintsTheVersionAndCommitTheBuildSet(t *testing.T) {
	version, commit = "v1.2.3", "0123abc"
	t.Cleanup(func() { version, commit = "", "" })
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"version"}, &stdout, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "checkoutd v1.2.3 (commit 0123abc, go") {
		t.Fatalf("%q", stdout.String())
	}
	version, commit = "", ""
	if v, c := buildVersion(); v == "" || c == "" {
		t.Fatalf("without build flags: %q %q", v, c)
	}
}

// Each case is run as the operator runs it: the binary, its exit status and its stderr.
func TestAUsageErrorIsOneLineAndExitStatusTwo(t *testing.T) {
	bin := binary(t)
	db := "CHECKOUT_DATABASE_URL=file:" + filepath.Join(t.TempDir(), "c.db")
	for _, c := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"no command", nil, nil, "expected one of"},
		{"an unknown command", nil, []string{"frobnicate"}, `unexpected argument frobnicate`},
		{"an unknown flag", nil, []string{"serve", "--bogus"}, "unknown flag --bogus"},
		{"a flag's bad value", nil, []string{"serve", "--webhook-max-attempts", "many"}, "--webhook-max-attempts"},
		{"a missing required flag", nil, []string{"shop", "create"}, "--identifier"},
		{"a database URL of no known kind", []string{"CHECKOUT_DATABASE_URL=mysql://app:db-hunter2@db/checkout"}, []string{"migrate"}, "CHECKOUT_DATABASE_URL"},
		{"a database URL without a scheme", []string{"CHECKOUT_DATABASE_URL=checkout.db"}, []string{"serve"}, "must be file:PATH"},
		{"a duration that does not parse", []string{db, "CHECKOUT_WEBHOOK_TIMEOUT=soon"}, []string{"serve"}, "CHECKOUT_WEBHOOK_TIMEOUT"},
		{"a duration that is not positive", []string{db, "CHECKOUT_JOB_POLL_INTERVAL=0s"}, []string{"serve"}, "must be a positive duration"},
		{"a subscription sweep more often than every second", []string{db, "CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL=500ms"}, []string{"serve"}, "must be at least 1s"},
		{"a retention shorter than its least", []string{db, "CHECKOUT_RETENTION_IDEMPOTENCY_RECORDS=2h"}, []string{"serve"}, "must be at least 24h"},
		{"a retention that does not parse", []string{db, "CHECKOUT_RETENTION_CONNECTOR_CALLS=forever"}, []string{"serve"}, "CHECKOUT_RETENTION_CONNECTOR_CALLS"},
		{"a log level of no known kind", []string{db, "CHECKOUT_LOG_LEVEL=loud"}, []string{"serve"}, "--log-level"},
		{"a backup of PostgreSQL", []string{"CHECKOUT_DATABASE_URL=postgres://app:db-hunter2@127.0.0.1:1/checkout"}, []string{"backup", "--to", "x.db"}, "pg_dump"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(os.Environ(), c.env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("checkoutd %v: %v, want exit status 2\n%s", c.args, err, stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "checkoutd: ") || !strings.Contains(lines[0], c.want) {
				t.Fatalf("stderr %q, want one line with %q", stderr.String(), c.want)
			}
			if stdout.Len() != 0 || strings.Contains(stderr.String(), "hunter2") {
				t.Fatalf("stdout %q, stderr %q", stdout.String(), stderr.String())
			}
		})
	}
}

// README's table of variables names every variable the command line reads.
func TestTheREADMEDocumentsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range configFlags(model(t)) {
		if !strings.Contains(string(readme), "| `"+f.Tag.Envs[0]+"` |") {
			t.Errorf("README.md's configuration table lacks %s", f.Tag.Envs[0])
		}
	}
}
