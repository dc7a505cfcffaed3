package subscription_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// List Subscriptions takes several statuses and several customers, reads filter through the
// filter grammar, and pages by cursor: each page says the total, its count, the page size, the
// number of pages and the next cursor (none on the last), and a walk meets every row once.
func TestListFiltersByStatusCustomerAndFilterAndPagesByCursor(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		for i, st := range []string{"active", "paused", "active", "inactive", "active"} {
			in := f.weekly(start.Add(time.Duration(i+1)*time.Hour), "tok_ok", "")
			in.Subscription.SubscriptionStatus = st
			if i == 1 {
				in.Customer.PlatformID = "cust-2"
			}
			f.create(t, in)
		}
		list := func(q subscription.ListQuery) *subscription.List {
			t.Helper()
			l, err := f.svc.Subscriptions.ListSubscriptions(ctx, f.shop, q)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		if l := list(subscription.ListQuery{Statuses: []string{"paused", "inactive"}}); l.Pagination.Total != 2 {
			t.Fatalf("paused or inactive: %+v", l.Pagination)
		}
		if l := list(subscription.ListQuery{PlatformCustomerIDs: []string{"cust-2", "cust-9"}, ExpandCustomer: true}); l.Pagination.Total != 1 ||
			l.Subscriptions[0].Customer == nil || l.Subscriptions[0].Customer.PlatformID != "cust-2" {
			t.Fatalf("customer cust-2: %+v", l)
		}
		if l := list(subscription.ListQuery{Filter: []string{"eq(subscription_status:active)+gt(next_order_datetime:" + start.Add(90*time.Minute).Format(time.RFC3339) + ")"}}); l.Pagination.Total != 2 {
			t.Fatalf("filtered: %+v", l.Pagination)
		}
		_, err := f.svc.Subscriptions.ListSubscriptions(ctx, f.shop, subscription.ListQuery{Filter: []string{"eq(payment_method_token:x)"}})
		wantProblem(t, err, problem.Malformed, "filter.invalid")

		seen := map[int]bool{}
		q := subscription.ListQuery{Limit: 2}
		for page := 1; ; page++ {
			l := list(q)
			p := l.Pagination
			if p.Total != 5 || p.PerPage != 2 || p.TotalPages != 3 || p.Count != len(l.Subscriptions) {
				t.Fatalf("page %d: %+v", page, p)
			}
			for _, s := range l.Subscriptions {
				if seen[s.ID] {
					t.Fatalf("subscription %d met twice", s.ID)
				}
				seen[s.ID] = true
			}
			if p.Next == nil {
				if page != 3 {
					t.Fatalf("last page is %d, want 3", page)
				}
				break
			}
			q.Cursor = *p.Next
		}
		if len(seen) != 5 {
			t.Fatalf("walk met %d subscriptions, want 5", len(seen))
		}
		for _, bad := range []subscription.ListQuery{{Limit: 101}, {Cursor: "nope"}, {Statuses: []string{"gone"}}} {
			_, err := f.svc.Subscriptions.ListSubscriptions(ctx, f.shop, bad)
			wantProblem(t, err, problem.Invalid, "subscription.invalid_query")
		}
	})
}

// Update Discount Code checks the code as checkout does (the shop has it, its dates, minimum
// subtotal and usage limit hold) and refuses it with the reason; Remove takes it off.
func TestUpdateDiscountCodeIsCheckedAsCheckoutChecksIt(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		v := f.create(t, f.weekly(start.Add(time.Hour), "tok_ok", ""))
		_, err := f.svc.Subscriptions.UpdateDiscountCode(ctx, f.shop, v.ID, "NOPE")
		e := wantProblem(t, err, problem.Rejected, "subscription.discount_code_rejected")
		if e.Message != "discount code NOPE does not exist" {
			t.Fatalf("message %q", e.Message)
		}
		_, err = f.svc.Subscriptions.RemoveDiscountCode(ctx, f.shop, v.ID)
		wantProblem(t, err, problem.Rejected, "subscription.discount_code_rejected")
		got, err := f.svc.Subscriptions.UpdateDiscountCode(ctx, f.shop, v.ID, "tenoff")
		if err != nil || got.DiscountCode != "TENOFF" {
			t.Fatalf("update: %+v %v", got, err)
		}
		got, err = f.svc.Subscriptions.RemoveDiscountCode(ctx, f.shop, v.ID)
		if err != nil || got.DiscountCode != "" {
			t.Fatalf("remove: %+v %v", got, err)
		}
		_, err = f.svc.Subscriptions.UpdateDiscountCode(ctx, f.shop, v.ID+100, "TENOFF")
		wantProblem(t, err, problem.NotFound, "subscription.not_found")
	})
}
