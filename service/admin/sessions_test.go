package admin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/adminsession"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// A console session is a row: another Service on the same database (another process, or this
// one restarted) knows it. The row keeps the token's SHA-256, never the token; a page records
// its use at most once a minute; sign-in deletes every expired session, and sign-out the
// session itself.
func TestConsoleSessionsAreRowsKeptByTheirTokensHashAndWrittenAtMostOnceAMinute(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		first := service.New(db, service.WithClock(clock.Now))
		created, err := first.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		token, err := first.Admin.StartSession(ctx, created.Shop, "")
		if err != nil {
			t.Fatal(err)
		}
		row, err := db.Client.AdminSession.Query().Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(token))
		if row.TokenHash != hex.EncodeToString(sum[:]) || row.TokenHash == token || row.CsrfToken == token {
			t.Fatalf("the row keeps %q for the token %q", row.TokenHash, token)
		}

		second := service.New(db, service.WithClock(clock.Now))
		clock.Add(30 * time.Second)
		sess, err := second.Admin.Session(ctx, token)
		if err != nil || sess == nil || sess.Shop.Identifier != "shop-a" || sess.CSRF != row.CsrfToken {
			t.Fatalf("another service reads the session as %+v (%v)", sess, err)
		}
		lastSeen := func() time.Time {
			t.Helper()
			r, err := db.Client.AdminSession.Query().Only(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return r.LastSeenAt
		}
		if !lastSeen().Equal(row.LastSeenAt) {
			t.Fatal("a page 30 s after sign-in wrote the session's last use")
		}
		clock.Add(31 * time.Second)
		if sess, _ := second.Admin.Session(ctx, token); sess == nil || !lastSeen().After(row.LastSeenAt) {
			t.Fatal("a page a minute after sign-in did not record the session's use")
		}

		if err := second.Admin.SetFlash(ctx, sess, "Saved."); err != nil {
			t.Fatal(err)
		}
		sess, _ = first.Admin.Session(ctx, token)
		if flash, err := first.Admin.TakeFlash(ctx, sess); flash != "Saved." || err != nil {
			t.Fatalf("the flash reads %q (%v)", flash, err)
		}
		if flash, _ := second.Admin.TakeFlash(ctx, sess); flash != "" {
			t.Fatalf("the flash was shown twice: %q", flash)
		}

		// An expired session is deleted by the next sign-in, whoever's it was.
		clock.Add(admin.IdleTimeout + time.Second)
		other, err := second.Admin.StartSession(ctx, created.Shop, "")
		if err != nil {
			t.Fatal(err)
		}
		if n := db.Client.AdminSession.Query().CountX(ctx); n != 1 {
			t.Fatalf("%d sessions after sign-in, want the new one alone", n)
		}
		if err := first.Admin.EndSession(ctx, other); err != nil {
			t.Fatal(err)
		}
		if sess, _ := second.Admin.Session(ctx, other); sess != nil {
			t.Fatal("a signed-out session still opens pages")
		}
		if db.Client.AdminSession.Query().Where(adminsession.ShopID(created.Shop.ID)).ExistX(ctx) {
			t.Fatal("sign-out left the session's row")
		}
	})
}
