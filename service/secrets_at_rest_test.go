package service_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

// rawRow is every column of one row as the database holds it, read with plain SQL: what a dump
// of the database would show.
func rawRow(t *testing.T, db *platform.Database, table string, id int) []byte {
	t.Helper()
	rows, err := db.SQL.Query("SELECT * FROM "+table+" WHERE id = $1", id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatalf("no row %d in %s", id, table)
	}
	values := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range values {
		ptrs[i] = &values[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, v := range values {
		if b, ok := v.([]byte); ok {
			all = append(all, b...)
		} else {
			all = fmt.Appendf(all, "%v", v)
		}
		all = append(all, '|')
	}
	return all
}

// wantSealed fails if the clear secret shows in the raw row, as it is or in base64 or hex.
func wantSealed(t *testing.T, db *platform.Database, table string, id int, clear []byte) {
	t.Helper()
	row := rawRow(t, db, table, id)
	for _, form := range [][]byte{clear, []byte(base64.StdEncoding.EncodeToString(clear)),
		[]byte(base64.RawURLEncoding.EncodeToString(clear)), []byte(hex.EncodeToString(clear))} {
		if bytes.Contains(row, form) {
			t.Errorf("the raw row of %s %d gives the secret away: %q", table, id, row)
		}
	}
	if !bytes.Contains(row, []byte("enc:v1:")) {
		t.Errorf("the raw row of %s %d holds no sealed value: %q", table, id, row)
	}
}

func TestADatabaseDumpGivesNoSecretAwayWhileTheServiceStillUsesEach(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db, service.WithOutboundAllowPrivate(true))
		sh := newShop(t, svc)
		str := func(s string) *string { return &s }

		t.Run("the shop's shared secret still signs its webhooks", func(t *testing.T) {
			const secret = "whsec-clear-text-4711"
			sh, err := svc.Shops.ConfigureSharedSecret(ctx, sh, secret)
			if err != nil {
				t.Fatal(err)
			}
			wantSealed(t, db, "shops", sh.ID, []byte(secret))
			receiver := webhooktest.New(t, secret)
			sub, err := svc.Webhooks.CreateWebhookSubscription(ctx, sh, 5, receiver.URL)
			if err != nil {
				t.Fatal(err)
			}
			if ping, err := svc.Webhooks.PingWebhookSubscription(ctx, sh, sub.ID); err != nil || !ping.Success {
				t.Fatalf("ping signed with the stored secret: %+v %v", ping, err)
			}
		})

		t.Run("the shop's JWT key still signs and verifies order tokens", func(t *testing.T) {
			stored, err := svc.Client().Shop.Get(ctx, sh.ID)
			if err != nil || len(stored.JwtKey) != 32 {
				t.Fatalf("jwt key read through the service: %d bytes, %v", len(stored.JwtKey), err)
			}
			wantSealed(t, db, "shops", sh.ID, stored.JwtKey)
			v := initMugOrder(t, svc, sh)
			if _, err := svc.Orders.AuthenticateOrder(ctx, sh.Identifier, v.Order.PublicOrderID, v.JWT); err != nil {
				t.Fatalf("the order's JWT: %v", err)
			}
		})

		t.Run("the gateway's api_token still signs the calls to it", func(t *testing.T) {
			const token = "gw-token-clear-9931"
			gw := gatewaytest.New(t, token)
			yes := true
			g, err := svc.Shops.CreateExternalPaymentGateway(ctx, sh, shops.ExternalPaymentGatewayInput{Name: str("Pay"), BaseURL: &gw.URL,
				APIToken: input.Of(token), PartialCapture: &yes, AdditionalOrderDetails: &yes, ProviderID: str(gatewaytest.ProviderID), Currency: str("USD")})
			if err != nil {
				t.Fatal(err)
			}
			wantSealed(t, db, "external_payment_gateways", g.ID, []byte(token))
			if res, err := svc.Payments.TestExternalPaymentGateway(ctx, sh, g.PublicID); err != nil || !res.OK {
				t.Fatalf("a call signed with the stored token: %+v %v", res, err)
			}
		})

		t.Run("the API override's shared secret is read back", func(t *testing.T) {
			const secret = "override-secret-clear-5521"
			o, err := svc.Shops.CreateAPIOverride(ctx, sh, shops.APIOverrideInput{OverrideType: str("tax"),
				URL: str("https://shop.example.com/tax"), SharedSecret: str(secret)})
			if err != nil {
				t.Fatal(err)
			}
			wantSealed(t, db, "api_overrides", o.ID, []byte(secret))
			all, err := svc.Shops.APIOverrides(ctx, sh)
			if err != nil || len(all) != 1 || all[0].SharedSecret != secret {
				t.Fatalf("overrides read back: %v %v", all, err)
			}
		})

		t.Run("the remote state authority's shared secret is read back", func(t *testing.T) {
			const secret = "rsa-secret-clear-8812"
			c, err := svc.Shops.CreateRSAConfig(ctx, sh, shops.RSAConfigInput{URL: str("https://rsa.example.com"), SharedSecret: str(secret)})
			if err != nil {
				t.Fatal(err)
			}
			wantSealed(t, db, "rsa_configs", c.ID, []byte(secret))
			if got, err := svc.Shops.RSAConfig(ctx, sh); err != nil || got.SharedSecret != secret {
				t.Fatalf("RSA config read back: %v %v", got, err)
			}
		})
	})
}
