package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/secrets"
)

// installSecretKeys installs the process's key ring, which every command that builds a service
// needs before it reads or writes a shop. Without a current key, an SQLite database's key is
// kept in a file beside it, made on first use; a PostgreSQL database is refused, as the key of
// a production database is the operator's to make and keep, not to be found beside a binary.
func installSecretKeys(databaseURL, current, previous string) error {
	if current == "" {
		path, ok := sqlitePath(databaseURL)
		if !ok {
			return errors.New("CHECKOUT_SECRET_KEY is required with PostgreSQL: 32 random bytes in base64 (openssl rand -base64 32), kept and backed up apart from the database")
		}
		key, err := keyFile(path + ".key")
		if err != nil {
			return err
		}
		current = key
	}
	ring, err := secrets.NewRing(current, previous)
	if err != nil {
		return err
	}
	secrets.Install(ring)
	return nil
}

// sqlitePath is the file of a file: database URL.
func sqlitePath(databaseURL string) (string, bool) {
	rest, ok := strings.CutPrefix(databaseURL, "file:")
	if !ok {
		return "", false
	}
	path, _, _ := strings.Cut(rest, "?")
	return path, true
}

// keyFile reads the key kept at path, or makes it there (mode 0600) and says so.
func keyFile(path string) (string, error) {
	if b, err := os.ReadFile(path); err == nil {
		slog.Info("no CHECKOUT_SECRET_KEY: shop secrets are sealed with the key file beside the database", "key_file", path)
		return strings.TrimSpace(string(b)), nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("secret key file: %w", err)
	}
	// Written whole under another name, then linked: a second process starting at the same
	// time reads the first one's key instead of making its own.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".checkoutd-key-*")
	if err != nil {
		return "", fmt.Errorf("secret key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	key := secrets.GenerateKey()
	_, err = tmp.WriteString(key + "\n")
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Link(tmp.Name(), path)
	}
	if errors.Is(err, fs.ErrExist) {
		return keyFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("secret key file: %w", err)
	}
	slog.Warn("no CHECKOUT_SECRET_KEY: generated the key that seals shop secrets in a file beside the database; back it up with the database, which is unreadable without it",
		"key_file", path)
	return key, nil
}

// prepareSecrets is serve's start-up step: it seals the secrets a checkoutd from before sealing
// left in clear, and stops the start when a stored secret's key is not in the ring.
func prepareSecrets(ctx context.Context, svc *service.Service) error {
	n, err := svc.Shops.PrepareSecrets(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		slog.Info("sealed the secrets stored in clear", "count", n, "key_id", secrets.Installed().CurrentID())
	}
	return nil
}

// rotateSecrets is `checkoutd secrets rotate`: it re-seals every secret under the current key,
// after which the keys of CHECKOUT_SECRET_KEY_PREVIOUS may be dropped.
func rotateSecrets(ctx context.Context, svc *service.Service, stdout io.Writer) error {
	n, err := svc.Shops.RotateSecrets(ctx)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "re-sealed %d secrets under key %s; every secret is now under it, and CHECKOUT_SECRET_KEY_PREVIOUS may be dropped\n",
		n, secrets.Installed().CurrentID())
	return err
}

// secretsCmd is the commands on the key that encrypts stored secrets (CHECKOUT_SECRET_KEY).
type secretsCmd struct {
	Rotate secretsRotateCmd `cmd:"" help:"Re-encrypt every stored secret under the current key."`
}

type secretsRotateCmd struct{}

func (secretsRotateCmd) Help() string {
	return "Re-seals every stored secret (and any still in clear) under --secret-key, reading the older ones with --secret-key-previous; afterwards the previous keys may be dropped."
}

func (secretsRotateCmd) Run(ctx context.Context, cfg *config, stdout io.Writer) error {
	db, err := cfg.openDatabaseWithSecrets()
	if err != nil {
		return err
	}
	defer db.Close()
	return rotateSecrets(ctx, service.New(db), stdout)
}
