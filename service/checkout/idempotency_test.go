package checkout_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// idempotentCalls counts the runs of one call under checkout.Idempotently.
type idempotentCalls struct {
	t    *testing.T
	svc  *service.Service
	sh   *ent.Shop
	runs int
	keys []string
}

func newIdempotentCalls(t *testing.T, db *platform.Database, clock *servicetest.Clock) *idempotentCalls {
	svc := service.New(db, service.WithClock(clock.Now))
	return &idempotentCalls{t: t, svc: svc, sh: newShop(t, svc)}
}

func run[T any](c *idempotentCalls, key, request string, res T, err error) (T, error) {
	return checkout.Idempotently(context.Background(), c.svc.Checkout, c.sh, key, []byte(request), func(_ context.Context, operationKey string) (T, error) {
		c.runs++
		c.keys = append(c.keys, operationKey)
		return res, err
	})
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type capture struct {
	Amount  int64          `json:"amount"`
	Details map[string]any `json:"details"`
}

// settling is a result that is not final yet, like a capture a gateway has not settled.
type settling struct{ Amount int64 }

func (settling) Final() bool { return false }

func TestTheSameKeyAndRequestReplayTheFirstResultWithoutRunningTheCallAgain(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		c := newIdempotentCalls(t, db, servicetest.NewClock(time.Now()))
		first := &capture{Amount: 1000000, Details: map[string]any{"big": 1000000, "rate": 0.25, "z": "last", "a": []any{1e6, "x"}}}
		if _, err := run(c, "key-1", "capture 1000000", first, nil); err != nil {
			t.Fatal(err)
		}
		again, err := run(c, "key-1", "capture 1000000", &capture{Amount: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.runs != 1 || jsonOf(t, again) != jsonOf(t, first) {
			t.Fatalf("after %d runs the replay is %s, want %s", c.runs, jsonOf(t, again), jsonOf(t, first))
		}
		if c.keys[0] != "shop-a:key-1" {
			t.Fatalf("the operation key is %q, want the shop's and the caller's key", c.keys[0])
		}
	})
}

// A refusal's details may hold numbers and structs: they come back as they were encoded the
// first time, and a string detail (the field) is still a string a front door can read.
func TestAKeptRefusalComesBackWithItsKindCodeTypeMessageAndDetails(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		c := newIdempotentCalls(t, db, servicetest.NewClock(time.Now()))
		type line struct{ Zebra, Apple string }
		refusal := &problem.Error{Kind: problem.Invalid, Code: "02-22", Type: "refund.failed", Message: "the payment gateway refused the refund",
			Details: map[string]any{"field": "amount", "max": 1000000, "lines": []line{{"z", "a"}}, "none": nil}}
		_, first := run[*capture](c, "key-1", "refund", nil, refusal)
		_, err := run[*capture](c, "key-1", "refund", nil, nil)
		p, ok := problem.As(err)
		if c.runs != 1 || !ok || first != refusal {
			t.Fatalf("after %d runs the replay is %v", c.runs, err)
		}
		if p.Kind != refusal.Kind || p.Code != refusal.Code || p.Type != refusal.Type || p.Message != refusal.Message ||
			p.Details["field"] != "amount" || jsonOf(t, p.Details) != jsonOf(t, refusal.Details) {
			t.Fatalf("replayed %+v (details %s), want %+v (details %s)", p, jsonOf(t, p.Details), refusal, jsonOf(t, refusal.Details))
		}
	})
}

// What is not final is not kept: a repeat runs the call again, and the call resumes from the
// ledger. Refusals of every other kind are final.
func TestOutcomesThatAreNotFinalAreNotKeptSoARepeatRunsAgain(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		c := newIdempotentCalls(t, db, servicetest.NewClock(time.Now()))
		notFinal := map[string]error{
			"fault":       errors.New("connection reset"),
			"internal":    &problem.Error{Kind: problem.Internal, Type: "server.internal_error"},
			"unavailable": &problem.Error{Kind: problem.Unavailable, Type: "gateway.unavailable"},
		}
		for name, err := range notFinal {
			c.runs = 0
			run[*capture](c, name, name, nil, err)
			run[*capture](c, name, name, nil, err)
			if c.runs != 2 {
				t.Fatalf("%s: %d runs, want 2", name, c.runs)
			}
		}
		c.runs = 0
		run(c, "settling", "settling", settling{Amount: 5}, nil)
		if res, _ := run(c, "settling", "settling", settling{Amount: 6}, nil); c.runs != 2 || res.Amount != 6 {
			t.Fatalf("a settling result: %d runs, the repeat answered %v", c.runs, res)
		}
		for _, kind := range []problem.Kind{problem.Invalid, problem.Conflict, problem.NotFound, problem.Malformed} {
			c.runs = 0
			run[*capture](c, kind.String(), "kept", nil, &problem.Error{Kind: kind, Type: "kept"})
			if _, err := run[*capture](c, kind.String(), "kept", nil, nil); c.runs != 1 || err == nil {
				t.Fatalf("a %s refusal: %d runs, the repeat answered %v", kind, c.runs, err)
			}
		}
	})
}

func TestAnotherRequestUnderTheSameKeyIsRefusedAndAKeyLastsADay(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		clock := servicetest.NewClock(time.Now())
		c := newIdempotentCalls(t, db, clock)
		run(c, "key-1", "capture 1000", &capture{Amount: 1000}, nil)
		_, err := run(c, "key-1", "capture 999", &capture{Amount: 999}, nil)
		if p, ok := problem.As(err); !ok || p.Kind != problem.Invalid || p.Type != "idempotency.key_reused" {
			t.Fatalf("another request under the key answered %v", err)
		}
		clock.Add(checkout.IdempotencyKeyLifetime + time.Second)
		if res, err := run(c, "key-1", "capture 999", &capture{Amount: 999}, nil); err != nil || res.Amount != 999 || c.runs != 2 {
			t.Fatalf("after a day the key answered %v, %v after %d runs", res, err, c.runs)
		}
	})
}

// The key's row is claimed before the call runs: a repeat meanwhile is a conflict, until the
// first has run for two minutes and is taken to have died with its process.
func TestARunningKeyIsInProgressUntilTakenOverAfterTwoMinutes(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		clock := servicetest.NewClock(time.Now())
		c := newIdempotentCalls(t, db, clock)
		ctx := context.Background()
		started, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			checkout.Idempotently(ctx, c.svc.Checkout, c.sh, "slow", []byte("capture"), func(context.Context, string) (*capture, error) {
				close(started)
				<-release
				return &capture{Amount: 1}, nil
			})
		}()
		<-started
		_, err := run(c, "slow", "capture", &capture{Amount: 2}, nil)
		if p, ok := problem.As(err); !ok || p.Kind != problem.Conflict || p.Type != "idempotency.in_progress" {
			t.Fatalf("a repeat while the first runs answered %v", err)
		}
		clock.Add(2*time.Minute + time.Second)
		if res, err := run(c, "slow", "capture", &capture{Amount: 3}, nil); err != nil || res.Amount != 3 {
			t.Fatalf("the takeover answered %v, %v", res, err)
		}
		close(release)
		<-done
	})
}

func TestAKeyHasAtMost255CharactersAndWithoutOneTheCallAlwaysRuns(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		c := newIdempotentCalls(t, db, servicetest.NewClock(time.Now()))
		_, err := run(c, strings.Repeat("k", 256), "capture", &capture{}, nil)
		if p, ok := problem.As(err); !ok || p.Type != "idempotency.invalid_key" || c.runs != 0 {
			t.Fatalf("a 256-character key answered %v after %d runs", err, c.runs)
		}
		if _, err := run(c, strings.Repeat("k", 255), "capture", &capture{}, nil); err != nil {
			t.Fatal(err)
		}
		run(c, "", "capture", &capture{}, nil)
		run(c, "", "capture", &capture{}, nil)
		if c.runs != 3 || c.keys[1] == c.keys[2] {
			t.Fatalf("%d runs with operation keys %q, want 3, the keyless ones apart", c.runs, c.keys)
		}
	})
}

func newShop(t *testing.T, svc *service.Service) *ent.Shop {
	t.Helper()
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	return created.Shop
}
