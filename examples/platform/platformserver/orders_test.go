package platformserver

import (
	"context"
	"net/http"
	"testing"
	"time"
)

type orderAnswer struct {
	Data struct {
		Order Order `json:"order"`
	} `json:"data"`
}

func sampleOrder() Order {
	return Order{
		PlatformCustomerID: "cus_000000000001", Currency: "USD", Subtotal: "20.00", Total: "21.50", TotalTax: "1.50",
		LineItems:         []LineItem{{PlatformVariantID: "var_1", Title: "Mug", Quantity: 2, PricePerItem: "10.00", Total: "20.00", Taxes: []Tax{{Amount: "1.50", Name: "VAT", Rate: "0.075"}}}},
		ShippingAddresses: []OrderAddress{{City: "Springfield", CountryCode: "US"}},
		BillingAddress:    Address{City: "Springfield", CountryCode: "US"},
		Payments:          []Payment{{Provider: "example", AmountPlanned: "21.50", Transactions: []Transaction{{Amount: "21.50", Type: "authorization"}}}},
		CustomAttributes:  map[string]CustomAttribute{"gift": {Description: "gift wrap", Value: "yes"}},
		Discounts:         map[string]OrderDiscount{"TEN": {Amount: "0.00", DiscountCode: "TEN"}},
	}
}

func TestCreateOrderIsIdempotentUnderTheSameKey(t *testing.T) {
	f := newFixture(t)
	var first, again, other orderAnswer
	wantStatus(t, f.do("POST", "orders", data("order", sampleOrder()), &first, "Idempotency-Key", "k-1"), http.StatusCreated)
	o := first.Data.Order
	if o.PlatformID == "" || !o.PlacedAt.Equal(testNow) || !o.PlatformUpdatedAt.Equal(testNow) || o.Total != "21.50" || o.LineItems[0].Taxes[0].Rate != "0.075" || o.CustomAttributes["gift"].Value != "yes" {
		t.Fatalf("created %+v", o)
	}
	wantStatus(t, f.do("POST", "orders", data("order", sampleOrder()), &again, "Idempotency-Key", "k-1"), http.StatusCreated)
	if again.Data.Order.PlatformID != o.PlatformID {
		t.Fatalf("repeat created %s, want %s", again.Data.Order.PlatformID, o.PlatformID)
	}
	wantStatus(t, f.do("POST", "orders", data("order", sampleOrder()), &other, "Idempotency-Key", "k-2"), http.StatusCreated)
	if other.Data.Order.PlatformID == o.PlatformID {
		t.Fatal("another key answered the first order")
	}
	if n := len(f.srv.Orders(testShop)); n != 2 {
		t.Fatalf("%d orders stored, want 2", n)
	}
	if c := f.srv.Calls(); c[1].IdempotencyKey != "k-1" {
		t.Fatalf("call recorded without its key: %+v", c[1])
	}
}

func TestDroppedAnswerThenRetryCreatesOneOrder(t *testing.T) {
	f := newFixture(t)
	f.srv.DropNextAnswer("/orders", 1)
	wantStatus(t, f.do("POST", "orders", data("order", sampleOrder()), nil, "Idempotency-Key", "k"), http.StatusBadGateway)
	var retry orderAnswer
	wantStatus(t, f.do("POST", "orders", data("order", sampleOrder()), &retry, "Idempotency-Key", "k"), http.StatusCreated)
	orders := f.srv.Orders(testShop)
	if len(orders) != 1 || orders[0].PlatformID != retry.Data.Order.PlatformID {
		t.Fatalf("orders %d after a lost answer and a retry, want 1", len(orders))
	}
}

func TestFailNext(t *testing.T) {
	f := newFixture(t)
	f.srv.FailNext("/customers", http.StatusServiceUnavailable, 2)
	body := data("customer", map[string]any{"first_name": "Ada"})
	wantStatus(t, f.do("POST", "customers", body, nil), http.StatusServiceUnavailable)
	wantStatus(t, f.do("GET", "verification", nil, nil), http.StatusOK) // other paths behave
	wantStatus(t, f.do("POST", "customers", body, nil), http.StatusServiceUnavailable)
	wantStatus(t, f.do("POST", "customers", body, nil), http.StatusCreated)
	if n := len(f.srv.Customers(testShop)); n != 1 {
		t.Fatalf("%d customers, want 1: a failed call must not create", n)
	}
	var statuses []int
	for _, c := range f.srv.Calls() {
		statuses = append(statuses, c.Status)
	}
	if want := []int{503, 200, 503, 201}; len(statuses) != 4 || statuses[0] != want[0] || statuses[2] != want[2] || statuses[3] != want[3] {
		t.Fatalf("recorded statuses %v, want %v", statuses, want)
	}
}

func TestSetDelay(t *testing.T) {
	f := newFixture(t)
	f.srv.SetDelay(2 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req := f.request("GET", "verification", nil).WithContext(ctx)
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("a delayed call answered within the caller's timeout")
	}
	if time.Since(start) > time.Second {
		t.Fatal("the client's timeout did not cut the delay short")
	}
	f.srv.SetDelay(0)
	wantStatus(t, f.do("GET", "verification", nil, nil), http.StatusOK)
}
