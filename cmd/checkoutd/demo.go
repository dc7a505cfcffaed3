package main

import (
	"context"
	"fmt"
	"io"

	"github.com/checkoutd/checkoutd/service"
)

const demoShop = "demo-shop"

// demoCmd makes sure the demo shop exists with a little configuration and prints a fresh token.
type demoCmd struct{}

func (demoCmd) Help() string {
	return "Applies pending migrations, creates the shop demo-shop with a little configuration if it is missing, and prints its URLs and a fresh access token."
}

func (demoCmd) Run(ctx context.Context, cfg *config, stdout io.Writer) error {
	db, err := cfg.openDatabaseWithSecrets()
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	svc := service.New(db)
	token, err := svc.EnsureDemoShop(ctx, demoShop)
	if err != nil {
		return err
	}
	addr := cfg.Addr
	fmt.Fprintf(stdout, `
checkoutd demo shop is ready.
  shop identifier: %s
  access token:    %s
  REST:            http://%s/checkout/shop/%s/life_elements   (Authorization: Bearer <token>)
  GraphQL:         http://%s/graphql   (GraphiQL in a browser: the token goes in its Headers pane)
  Admin console:   http://%s/admin
  Storefront demo: http://%s/demo/%s   (paste the access token; GraphQL checkout)

`, demoShop, token, addr, demoShop, addr, addr, addr, demoShop)
	return nil
}
