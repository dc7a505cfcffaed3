package orders

import (
	"context"
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/ent/order"
)

// sendEmail sends one plain-text message. It reports failure instead of failing the call that
// asked for it: money has already moved when a refund email goes out.
func (s *Service) sendEmail(ctx context.Context, to, subject, body string) error {
	if s.smtpURL == "" {
		return fmt.Errorf("no SMTP server configured")
	}
	u, err := url.Parse(s.smtpURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("CHECKOUT_SMTP_URL is not an smtp:// URL")
	}
	from := u.Query().Get("from")
	if from == "" {
		from = "checkoutd@" + u.Hostname()
	}
	var auth smtp.Auth
	if u.User != nil {
		pass, _ := u.User.Password()
		auth = smtp.PlainAuth("", u.User.Username(), pass, u.Hostname())
	}
	if strings.ContainsAny(to+subject, "\r\n") {
		return fmt.Errorf("header injection refused")
	}
	msg := "From: " + from + "\r\nTo: " + to + "\r\nSubject: " + subject + "\r\nDate: " + time.Now().UTC().Format(time.RFC1123Z) +
		"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
	done := make(chan error, 1)
	go func() { done <- smtp.SendMail(u.Host, auth, from, []string{to}, []byte(msg)) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second):
		return &net.OpError{Op: "smtp", Err: fmt.Errorf("timed out")}
	}
}

// EmailRefund tells the customer about a refund of amount; it reports whether the email went out.
func (s *Service) EmailRefund(ctx context.Context, sess *OrderSession, amount int64) bool {
	o, err := s.p.DB.Read.Order.Query().Where(order.ShopID(sess.Shop.ID), order.PublicOrderID(sess.PublicOrderID())).Only(ctx)
	if err != nil || o.Customer == nil || o.Customer.EmailAddress == "" {
		return false
	}
	body := fmt.Sprintf("Hello %s,\n\nA refund of %s %s was issued for your order %s.\n\n%s\n",
		o.Customer.FirstName, formatMinor(amount, o.Currency), o.Currency, o.PlatformOrderID, sess.Shop.Name)
	if err := s.sendEmail(ctx, o.Customer.EmailAddress, "Your refund for order "+o.PlatformOrderID, body); err != nil {
		s.p.Log.WarnContext(ctx, "refund email not sent", "public_order_id", o.PublicOrderID, "error", err)
		return false
	}
	return true
}

// formatMinor writes minor units in the currency's decimal form (1250 USD is 12.50).
func formatMinor(amount int64, code string) string {
	d, _ := currency.GetDigits(code)
	digits := int(d)
	if digits == 0 {
		return fmt.Sprint(amount)
	}
	p := int64(1)
	for range digits {
		p *= 10
	}
	return fmt.Sprintf("%d.%0*d", amount/p, digits, amount%p)
}
