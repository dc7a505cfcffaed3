package platform_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// fastHolds are hold timings short enough for a test.
var fastHolds = platform.HoldTimings{Settle: 200 * time.Millisecond, Check: 20 * time.Millisecond, Retry: 50 * time.Millisecond}

// hold holds key on db, failing the test when it cannot within a few seconds.
func hold(t *testing.T, db *platform.Database, key int) (func(), bool) {
	t.Helper()
	release, inMemory, taken, err := db.HoldKey(context.Background(), key, 5*time.Second)
	if err != nil || !taken {
		t.Fatalf("holding %d: taken %v, %v", key, taken, err)
	}
	return release, inMemory
}

// holdInMemory waits until db holds in memory, and answers a hold of key so taken.
func holdInMemory(t *testing.T, db *platform.Database, key int) func() {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		release, inMemory := hold(t, db, key)
		if inMemory {
			return release
		}
		release()
		if time.Now().After(deadline) {
			t.Fatal("the process never came to hold in memory")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAProcessAloneOnItsPostgreSQLHoldsInItsMemoryOnceEveryHoldOnARowHasEnded(t *testing.T) {
	db := servicetest.Postgres(t)
	db.SetHoldTimings(platform.HoldTimings{Settle: time.Second, Check: 20 * time.Millisecond, Retry: 50 * time.Millisecond})
	start := time.Now()
	release, inMemory := hold(t, db, 1)
	release()
	if inMemory {
		t.Fatal("the first hold was in memory: a hold on a row left by a process gone may not have ended")
	}
	holdInMemory(t, db, 1)()
	if took := time.Since(start); took < time.Second {
		t.Fatalf("held in memory after %s, before the settle of 1s", took)
	}
}

func TestAProcessThatJoinsWaitsForTheHoldsInMemoryOfTheOneAloneToEnd(t *testing.T) {
	a := servicetest.Postgres(t)
	a.SetHoldTimings(fastHolds)
	b := servicetest.AnotherProcess(t, a)
	b.SetHoldTimings(fastHolds)
	releaseA := holdInMemory(t, a, 1)
	joined := make(chan bool, 1)
	go func() {
		release, inMemory, taken, err := b.HoldKey(context.Background(), 2, 10*time.Second)
		if err != nil || !taken {
			t.Errorf("the second process's hold: taken %v, %v", taken, err)
		} else {
			release()
		}
		joined <- inMemory
	}()
	// The process alone sees the other waiting and stops holding in memory.
	deadline := time.Now().Add(5 * time.Second)
	for {
		release, inMemory := hold(t, a, 3)
		release()
		if !inMemory {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the process alone kept holding in memory while another waited to join")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-joined:
		t.Fatal("the second process held a key while the first still held one in memory")
	case <-time.After(300 * time.Millisecond):
	}
	releaseA()
	select {
	case inMemory := <-joined:
		if inMemory {
			t.Fatal("the second process holds in memory beside the first")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second process never joined once the hold in memory ended")
	}
	// Both hold on rows from then on.
	for _, db := range []*platform.Database{a, b} {
		release, inMemory := hold(t, db, 4)
		release()
		if inMemory {
			t.Fatal("a process held in memory beside another")
		}
	}
}

func TestTheLastProcessLeftOnItsPostgreSQLHoldsInItsMemoryAgain(t *testing.T) {
	a := servicetest.Postgres(t)
	a.SetHoldTimings(fastHolds)
	b := servicetest.AnotherProcess(t, a)
	b.SetHoldTimings(fastHolds)
	holdInMemory(t, a, 1)()
	release, _ := hold(t, b, 1)
	release()
	if release, inMemory := hold(t, a, 1); inMemory {
		t.Fatal("held in memory while another process is on the database")
	} else {
		release()
	}
	b.Close()
	holdInMemory(t, a, 1)()
}

func TestDeploymentsInTwoSchemasOfOneDatabaseHoldInMemoryEach(t *testing.T) {
	a, b := servicetest.Postgres(t), servicetest.Postgres(t)
	a.SetHoldTimings(fastHolds)
	b.SetHoldTimings(fastHolds)
	holdInMemory(t, a, 1)()
	holdInMemory(t, b, 1)()
}

func TestHoldsInMemoryFalseInTheURLKeepsAProcessAloneHoldingOnRows(t *testing.T) {
	a := servicetest.Postgres(t)
	u := servicetest.URLOf(t, a)
	db, err := platform.OpenDatabase(u + "&holds_in_memory=false")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetHoldTimings(fastHolds)
	for range 10 {
		release, inMemory := hold(t, db, 1)
		release()
		if inMemory {
			t.Fatal("held in memory with holds_in_memory=false")
		}
		time.Sleep(fastHolds.Settle / 4)
	}
	if _, err := platform.OpenDatabase(u + "&holds_in_memory=sometimes"); err == nil {
		t.Fatal("holds_in_memory=sometimes was accepted")
	}
}

func TestAProcessAloneHoldsOnRowsWhileAnotherProcessThatDoesNotTakeTheLockLives(t *testing.T) {
	db := servicetest.Postgres(t)
	db.SetHoldTimings(fastHolds)
	db.JoinHolders("this-process")
	// A process of a release before the lock: it renews its lease and holds on rows.
	ctx := context.Background()
	if err := db.Client.ProcessLease.Create().SetProcess("older-release").SetRenewedAt(time.Now()).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(4 * fastHolds.Settle)
	for time.Now().Before(deadline) {
		release, inMemory := hold(t, db, 1)
		release()
		if inMemory {
			t.Fatal("held in memory while another process's lease lives")
		}
		time.Sleep(fastHolds.Check)
	}
	if _, err := db.Client.ProcessLease.Delete().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	holdInMemory(t, db, 1)()
}
