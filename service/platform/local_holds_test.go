package platform_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/platform"
)

func TestALocalHoldIsTakenOnceAtATimeAndWaitedFor(t *testing.T) {
	ctx := context.Background()
	holds := (&platform.Database{}).Holds()
	release, taken, err := holds.Take(ctx, 1, time.Second)
	if err != nil || !taken {
		t.Fatalf("a free hold: taken %v, %v", taken, err)
	}
	if _, taken, _ := holds.Take(ctx, 1, 20*time.Millisecond); taken {
		t.Fatal("a held key was taken again")
	}
	if other, taken, _ := holds.Take(ctx, 2, 0); !taken {
		t.Fatal("another key waited for the first")
	} else {
		other()
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		release()
		release() // giving back twice gives back once
	}()
	second, taken, err := holds.Take(ctx, 1, 5*time.Second)
	if err != nil || !taken {
		t.Fatalf("waiting for the holder: taken %v, %v", taken, err)
	}
	second()
	cancelled, cancel := context.WithCancel(ctx)
	held, _, _ := holds.Take(ctx, 1, time.Second)
	cancel()
	if _, _, err := holds.Take(cancelled, 1, time.Second); err == nil {
		t.Fatal("a cancelled wait took the hold")
	}
	held()
}
