package main

import (
	"context"
	"errors"
	"io"
)

// secretsCmd is the commands on the key that encrypts stored secrets (CHECKOUT_SECRET_KEY).
type secretsCmd struct {
	Rotate secretsRotateCmd `cmd:"" help:"Re-encrypt every stored secret under the current key."`
}

type secretsRotateCmd struct{}

func (secretsRotateCmd) Run(ctx context.Context, cfg *config, stdout io.Writer) error {
	return errors.New("secrets rotate is not built yet (issue 28)")
}
