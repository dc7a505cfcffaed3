package secrets_test

import (
	"context"
	"errors"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/secrets"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// These tests change the process's key ring, so they live in a test binary of their own and
// do not run in parallel.

func install(t *testing.T, current string, previous string) {
	t.Helper()
	r, err := secrets.NewRing(current, previous)
	if err != nil {
		t.Fatal(err)
	}
	secrets.Install(r)
}

// rawValue is a secret's column as the database holds it.
func rawValue(t *testing.T, db *platform.Database, table, column string, id int) []byte {
	t.Helper()
	var v []byte
	if err := db.SQL.QueryRow("SELECT "+column+" FROM "+table+" WHERE id = $1", id).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// configured is a shop with every kind of secret, and the clear values the service was given.
type configured struct {
	shop                                         *ent.Shop
	jwtKey                                       []byte
	gateway                                      *ent.ExternalPaymentGateway
	override                                     *ent.APIOverride
	rsa                                          *ent.RSAConfig
	shopSecret, token, overrideSecret, rsaSecret string
}

func configure(t *testing.T, svc *service.Service) configured {
	t.Helper()
	ctx := context.Background()
	str := func(s string) *string { return &s }
	c := configured{shopSecret: "whsec-1", token: "gw-token-2", overrideSecret: "override-3", rsaSecret: "rsa-4"}
	created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	if c.shop, err = svc.Shops.ConfigureSharedSecret(ctx, created.Shop, c.shopSecret); err != nil {
		t.Fatal(err)
	}
	c.jwtKey = c.shop.JwtKey
	yes := true
	if c.gateway, err = svc.Shops.CreateExternalPaymentGateway(ctx, c.shop, shops.ExternalPaymentGatewayInput{Name: str("Pay"),
		BaseURL: str("https://pay.example.com"), APIToken: input.Of(c.token), PartialCapture: &yes, AdditionalOrderDetails: &yes,
		ProviderID: str("p"), Currency: str("USD")}); err != nil {
		t.Fatal(err)
	}
	if c.override, err = svc.Shops.CreateAPIOverride(ctx, c.shop, shops.APIOverrideInput{OverrideType: str("tax"),
		URL: str("https://shop.example.com/tax"), SharedSecret: str(c.overrideSecret)}); err != nil {
		t.Fatal(err)
	}
	if c.rsa, err = svc.Shops.CreateRSAConfig(ctx, c.shop, shops.RSAConfigInput{URL: str("https://rsa.example.com"), SharedSecret: str(c.rsaSecret)}); err != nil {
		t.Fatal(err)
	}
	return c
}

// readBack reads every secret of c through ent, as the service does, and fails on a difference.
func readBack(ctx context.Context, client *ent.Client, c configured) error {
	sh, err := client.Shop.Get(ctx, c.shop.ID)
	if err != nil {
		return err
	}
	g, err := client.ExternalPaymentGateway.Get(ctx, c.gateway.ID)
	if err != nil {
		return err
	}
	o, err := client.APIOverride.Get(ctx, c.override.ID)
	if err != nil {
		return err
	}
	r, err := client.RSAConfig.Get(ctx, c.rsa.ID)
	if err != nil {
		return err
	}
	if sh.SharedSecret != c.shopSecret || string(sh.JwtKey) != string(c.jwtKey) || g.APIToken != c.token ||
		o.SharedSecret != c.overrideSecret || r.SharedSecret != c.rsaSecret {
		return errors.New("a secret read back differs from the one written")
	}
	return nil
}

// sealedWith is the key id of each of c's stored secrets.
func sealedWith(t *testing.T, db *platform.Database, c configured) []string {
	t.Helper()
	return []string{
		secrets.SealedWith(rawValue(t, db, "shops", "shared_secret", c.shop.ID)),
		secrets.SealedWith(rawValue(t, db, "shops", "jwt_key", c.shop.ID)),
		secrets.SealedWith(rawValue(t, db, "external_payment_gateways", "api_token", c.gateway.ID)),
		secrets.SealedWith(rawValue(t, db, "api_overrides", "shared_secret", c.override.ID)),
		secrets.SealedWith(rawValue(t, db, "rsa_configs", "shared_secret", c.rsa.ID)),
	}
}

func TestRotationReSealsEverySecretUnderTheNewKeySoThatItAloneReadsThem(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		a, b := secrets.GenerateKey(), secrets.GenerateKey()
		install(t, a, "")
		svc := service.New(db)
		c := configure(t, svc)

		install(t, b, a)
		if err := readBack(ctx, svc.Client(), c); err != nil {
			t.Fatalf("with A as a previous key: %v", err)
		}
		if n, err := svc.Shops.RotateSecrets(ctx); err != nil || n != 5 {
			t.Fatalf("rotation re-sealed %d secrets (%v), want 5", n, err)
		}
		if n, err := svc.Shops.RotateSecrets(ctx); err != nil || n != 0 {
			t.Fatalf("a second rotation re-sealed %d secrets (%v), want none", n, err)
		}

		install(t, b, "")
		bID := secrets.Installed().CurrentID()
		for i, kid := range sealedWith(t, db, c) {
			if kid != bID {
				t.Errorf("secret %d sealed with %q after the rotation, want B's %s", i, kid, bID)
			}
		}
		if err := readBack(ctx, svc.Client(), c); err != nil {
			t.Fatalf("with B alone: %v", err)
		}
	})
}

func TestAWrongKeyIsAClearErrorNotGarbage(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		install(t, secrets.GenerateKey(), "")
		svc := service.New(db)
		c := configure(t, svc)
		sealedWith := secrets.Installed().CurrentID()

		install(t, secrets.GenerateKey(), "")
		var unknown *secrets.UnknownKeyError
		if err := readBack(ctx, svc.Client(), c); !errors.As(err, &unknown) || unknown.ID != sealedWith {
			t.Fatalf("reading with a wrong key: %v", err)
		}
		if _, err := svc.Shops.PrepareSecrets(ctx); !errors.As(err, &unknown) {
			t.Fatalf("serve's start-up step with a wrong key: %v", err)
		}
		if _, err := svc.Shops.RotateSecrets(ctx); !errors.As(err, &unknown) {
			t.Fatalf("rotation with a wrong key: %v", err)
		}
	})
}

func TestSecretsStoredInClearKeepWorkingAndAreSealedAtStart(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		install(t, secrets.GenerateKey(), "")
		svc := service.New(db)
		c := configure(t, svc)
		// As a checkoutd from before secrets were sealed left them.
		c.rsaSecret = "rsa-in-clear"
		if _, err := db.SQL.Exec("UPDATE rsa_configs SET shared_secret = $1 WHERE id = $2", c.rsaSecret, c.rsa.ID); err != nil {
			t.Fatal(err)
		}
		if err := readBack(ctx, svc.Client(), c); err != nil {
			t.Fatalf("a clear value: %v", err)
		}
		if n, err := svc.Shops.PrepareSecrets(ctx); err != nil || n != 1 {
			t.Fatalf("start-up sealed %d secrets (%v), want the clear one", n, err)
		}
		if kid := secrets.SealedWith(rawValue(t, db, "rsa_configs", "shared_secret", c.rsa.ID)); kid != secrets.Installed().CurrentID() {
			t.Fatalf("the clear value is sealed with %q", kid)
		}
		if err := readBack(ctx, svc.Client(), c); err != nil {
			t.Fatalf("after sealing: %v", err)
		}
	})
}
