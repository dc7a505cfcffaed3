package main

import (
	"context"
	"encoding/json"
	"io"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/shops"
)

// shopCmd creates shops and issues their access tokens; each prints one line of JSON for scripts.
type shopCmd struct {
	Create shopCreateCmd `cmd:"" help:"Create a shop and print its first access token."`
	Token  shopTokenCmd  `cmd:"" help:"Issue another access token for a shop."`
}

type shopCreateCmd struct {
	Identifier string `required:"" placeholder:"ID" help:"The shop's identifier, as it appears in API paths."`
	Name       string `help:"The shop's name."`
	Domain     string `help:"The shop's domain."`
	Currency   string `default:"USD" placeholder:"CODE" help:"The shop's currency (ISO 4217)."`
}

func (shopCreateCmd) Help() string {
	return `Prints {"shop_identifier":"...","access_token":"..."}. The token is shown once: only its hash is stored.`
}

func (c shopCreateCmd) Run(ctx context.Context, cfg *config, stdout io.Writer) error {
	db, err := cfg.openDatabaseWithSecrets()
	if err != nil {
		return err
	}
	defer db.Close()
	created, err := service.New(db).Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: c.Identifier, Name: c.Name, Domain: c.Domain, Currency: c.Currency})
	if err != nil {
		return err
	}
	return printToken(stdout, c.Identifier, created.AccessToken)
}

type shopTokenCmd struct {
	Identifier string `required:"" placeholder:"ID" help:"The shop's identifier."`
}

func (shopTokenCmd) Help() string {
	return `Prints {"shop_identifier":"...","access_token":"..."}; the shop's other tokens keep working.`
}

func (c shopTokenCmd) Run(ctx context.Context, cfg *config, stdout io.Writer) error {
	db, err := cfg.openDatabaseWithSecrets()
	if err != nil {
		return err
	}
	defer db.Close()
	token, err := service.New(db).Shops.IssueAccessToken(ctx, c.Identifier)
	if err != nil {
		return err
	}
	return printToken(stdout, c.Identifier, token)
}

func printToken(stdout io.Writer, identifier, token string) error {
	return json.NewEncoder(stdout).Encode(map[string]string{"shop_identifier": identifier, "access_token": token})
}
