package service_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// SQLite has no time type: times are text, and must compare as times do.
func TestTimesCompareAsTimesOnEveryDatabase(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "times"})
		if err != nil {
			t.Fatal(err)
		}
		base := time.Date(2026, 11, 23, 18, 52, 28, 740_000_000, time.FixedZone("EST", -5*3600))
		// c is an hour before base, written in another zone: as text it would sort after base.
		for i, at := range []time.Time{base, base.Add(time.Millisecond), base.Add(-time.Hour).UTC()} {
			if err := db.Client.Order.Create().SetShopID(created.Shop.ID).SetPublicOrderID(string(rune('a' + i))).SetCurrency("USD").
				SetMetaData(schema.OrderMetaData{}).SetCreatedAt(at).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		after, err := db.Client.Order.Query().Where(order.CreatedAtGT(base)).Order(order.ByCreatedAt()).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != 1 || after[0].PublicOrderID != "b" {
			t.Fatalf("created after %v: %d orders", base, len(after))
		}
	})
}

// SQLite's writer does not checkpoint its write-ahead log in its commits: the checkpointer does,
// beside it. Committed writes still reach the database file, and the log does not grow forever.
func TestSQLiteCommitsReachTheDatabaseFileWithoutTheWriterCheckpointing(t *testing.T) {
	ctx := context.Background()
	servicetest.UseSecretKey()
	path := filepath.Join(t.TempDir(), "checkout.db")
	db, err := platform.OpenDatabase("file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var autocheckpoint int
	if err := db.SQL.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&autocheckpoint); err != nil || autocheckpoint != 0 {
		t.Fatalf("the writer checkpoints every %d pages of log (%v); want it not to", autocheckpoint, err)
	}
	svc := service.New(db)
	sh := newShop(t, svc)
	before := fileSize(t, path)
	for range 200 {
		initMugOrder(t, svc, sh)
	}
	// The orders are in the log first; the checkpointer copies them into the database file.
	deadline := time.Now().Add(10 * time.Second)
	for fileSize(t, path) == before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is still %d bytes after 200 orders were committed", before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// Two connections switching a new SQLite file to WAL at once can deadlock, and SQLite answers
// that with SQLITE_BUSY whatever the busy timeout. OpenDatabase's own connections (the writer,
// then the readers and the checkpointer) must never meet that way: a migration run beside
// another connection opening the same new file always succeeds.
func TestANewSQLiteDatabaseMigratesWhileAnotherConnectionOpensIt(t *testing.T) {
	for i := range 40 {
		url := "file:" + filepath.Join(t.TempDir(), "checkout.db")
		db, err := platform.OpenDatabase(url)
		if err != nil {
			t.Fatal(err)
		}
		other, err := platform.OpenDatabase(url)
		if err != nil {
			t.Fatalf("opening %d a second time: %v", i, err)
		}
		migrated := make(chan error, 1)
		go func() { migrated <- db.Migrate(context.Background()) }()
		if err := other.Ping(context.Background()); err != nil {
			t.Fatalf("second connection to database %d: %v", i, err)
		}
		if err := <-migrated; err != nil {
			t.Fatalf("migrating database %d: %v", i, err)
		}
		other.Close()
		db.Close()
	}
}
