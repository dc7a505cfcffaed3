package platformserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Notifier sends event notifications to checkoutd: a platform calls them whenever data changes
// on the platform and checkoutd did not make the change. Each call is one POST answered 202
// with an empty body; anything else is returned as a *StatusError. Notifier does not retry:
// the caller decides, and an accurate platform_updated_at or platform_deleted_at lets
// checkoutd order deliveries that arrive out of sequence.
type Notifier struct {
	// BaseURL is checkoutd's base URL, e.g. http://127.0.0.1:8080.
	BaseURL string
	// AccessToken is the shop's checkoutd access token, sent as a bearer token.
	AccessToken string
	// Client sends the calls; nil means http.DefaultClient.
	Client *http.Client
}

// StatusError is an answer other than 202.
type StatusError struct {
	StatusCode int
	Body       string // at most 1 KiB of it
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("platformserver: event notification answered %d: %s", e.StatusCode, e.Body)
}

// deleted is the body member of every Deleted notification.
type deleted struct {
	PlatformID        string `json:"platform_id"`
	PlatformDeletedAt string `json:"platform_deleted_at"`
}

func deletedAt(id string, at time.Time) deleted {
	return deleted{PlatformID: id, PlatformDeletedAt: at.UTC().Format(time.RFC3339Nano)}
}

// CustomerSaved sends Customer Saved with the complete customer, addresses included.
func (n *Notifier) CustomerSaved(ctx context.Context, shop string, c Customer) error {
	if c.Addresses == nil {
		c.Addresses = []Address{}
	}
	return n.send(ctx, "customers", shop, "customers/saved", "customer", c)
}

// CustomerDeleted sends Customer Deleted.
func (n *Notifier) CustomerDeleted(ctx context.Context, shop, platformID string, at time.Time) error {
	return n.send(ctx, "customers", shop, "customers/deleted", "customer", deletedAt(platformID, at))
}

// ProductSaved sends Product Saved with the complete product.
func (n *Notifier) ProductSaved(ctx context.Context, shop string, p Product) error {
	return n.send(ctx, "products", shop, "products/saved", "product", p)
}

// ProductDeleted sends Product Deleted.
func (n *Notifier) ProductDeleted(ctx context.Context, shop, platformID string, at time.Time) error {
	return n.send(ctx, "products", shop, "products/deleted", "product", deletedAt(platformID, at))
}

// CategorySaved sends Product Category Saved.
func (n *Notifier) CategorySaved(ctx context.Context, shop string, c Category) error {
	return n.send(ctx, "products", shop, "categories/saved", "category", c)
}

// CategoryDeleted sends Product Category Deleted.
func (n *Notifier) CategoryDeleted(ctx context.Context, shop, platformID string, at time.Time) error {
	return n.send(ctx, "products", shop, "categories/deleted", "category", deletedAt(platformID, at))
}

// OrderSaved sends Order Saved with the complete order.
func (n *Notifier) OrderSaved(ctx context.Context, shop string, o Order) error {
	return n.send(ctx, "orders", shop, "orders/saved", "order", o)
}

// OrderDeleted sends Order Deleted.
func (n *Notifier) OrderDeleted(ctx context.Context, shop, platformID string, at time.Time) error {
	return n.send(ctx, "orders", shop, "orders/deleted", "order", deletedAt(platformID, at))
}

// NotificationPath is the path, under checkoutd's base URL, of an event notification:
// /{topic}/v1/shops/{shop}/platforms/custom/webhooks/{event}, e.g. topic "customers" and event
// "customers/saved".
func NotificationPath(topic, shop, event string) string {
	return "/" + topic + "/v1/shops/" + url.PathEscape(shop) + "/platforms/custom/webhooks/" + event
}

func (n *Notifier) send(ctx context.Context, topic, shop, event, name string, v any) error {
	body, err := json.Marshal(map[string]any{"data": map[string]any{name: v}})
	if err != nil {
		return err
	}
	u := strings.TrimSuffix(n.BaseURL, "/") + NotificationPath(topic, shop, event)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+n.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "checkoutd-example-platform")
	c := n.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if resp.StatusCode != http.StatusAccepted {
		return &StatusError{StatusCode: resp.StatusCode, Body: string(b)}
	}
	return nil
}
