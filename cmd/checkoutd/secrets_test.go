package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service/secrets"
)

// keepRing puts back the process's key ring after a test that installs others.
func keepRing(t *testing.T) {
	ring := secrets.Installed()
	t.Cleanup(func() { secrets.Install(ring) })
}

func TestWithoutAKeyAnSQLiteDatabaseGetsAKeyFileBesideItAndPostgreSQLIsRefused(t *testing.T) {
	keepRing(t)
	t.Setenv("CHECKOUT_SECRET_KEY", "")
	db := filepath.Join(t.TempDir(), "c.db")
	t.Setenv("CHECKOUT_DATABASE_URL", "file:"+db)
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	if err := run(ctx, []string{"migrate"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"shop", "create", "--identifier", "acme"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(db + ".key")
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", info, err)
	}
	if !strings.Contains(stderr.String(), "generated the key") || !strings.Contains(stderr.String(), db+".key") {
		t.Fatalf("making the key file was not said: %s", stderr.String())
	}
	key, _ := os.ReadFile(db + ".key")
	if err := run(ctx, []string{"shop", "token", "--identifier", "acme"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(db + ".key"); !bytes.Equal(again, key) {
		t.Fatal("the key file was made again")
	}

	err = installSecretKeys("postgres://postgres@127.0.0.1:5432/postgres", "", "")
	if err == nil || !strings.Contains(err.Error(), "CHECKOUT_SECRET_KEY is required with PostgreSQL") {
		t.Fatalf("PostgreSQL without a key: %v", err)
	}
}

func TestSecretsRotateLetsThePreviousKeyBeDropped(t *testing.T) {
	keepRing(t)
	t.Setenv("CHECKOUT_DATABASE_URL", "file:"+filepath.Join(t.TempDir(), "c.db"))
	a, b := secrets.GenerateKey(), secrets.GenerateKey()
	ctx := context.Background()
	command := func(current, previous string, args ...string) (string, error) {
		t.Setenv("CHECKOUT_SECRET_KEY", current)
		t.Setenv("CHECKOUT_SECRET_KEY_PREVIOUS", previous)
		var stdout, stderr bytes.Buffer
		err := run(ctx, args, &stdout, &stderr)
		return stdout.String(), err
	}
	if _, err := command(a, "", "migrate"); err != nil {
		t.Fatal(err)
	}
	if _, err := command(a, "", "shop", "create", "--identifier", "acme"); err != nil {
		t.Fatal(err)
	}
	if out, err := command(b, a, "secrets", "rotate"); err != nil || !strings.HasPrefix(out, "re-sealed 1 secrets") {
		t.Fatalf("rotate from A to B: %q %v", out, err)
	}
	if out, err := command(b, "", "secrets", "rotate"); err != nil || !strings.HasPrefix(out, "re-sealed 0 secrets") {
		t.Fatalf("B alone: %q %v", out, err)
	}
	if _, err := command(a, "", "secrets", "rotate"); err == nil || !strings.Contains(err.Error(), "neither CHECKOUT_SECRET_KEY nor in CHECKOUT_SECRET_KEY_PREVIOUS") {
		t.Fatalf("A alone after the rotation: %v", err)
	}
}
