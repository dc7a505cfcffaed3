package rest_test

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// mailbox is a real SMTP server in the test process that keeps what it receives.
type mailbox struct {
	mu   sync.Mutex
	msgs []string
	addr string
}

func newMailbox(t *testing.T) *mailbox {
	m := &mailbox{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &mailSession{box: m}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return m
}

func (m *mailbox) messages() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.msgs...)
}

type mailSession struct {
	box *mailbox
	to  string
}

func (s *mailSession) Reset()        {}
func (s *mailSession) Logout() error { return nil }
func (s *mailSession) Mail(string, *smtp.MailOptions) error {
	return nil
}
func (s *mailSession) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }
func (s *mailSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	s.box.msgs = append(s.box.msgs, "To-Envelope: "+s.to+"\r\n"+string(b))
	return nil
}

func TestARefundWithEmailNotificationEmailsTheCustomer(t *testing.T) {
	box := newMailbox(t)
	eachAPIWith(t, []service.Option{service.WithSMTP("smtp://" + box.addr + "?from=shop@example.com")}, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		before := len(box.messages())
		d := p.post("/refunds", map[string]any{"amount": 1250, "email_notification": true, "reason": "late"}, "").wantStatus(t, 200).data(t)
		if d["email_sent"] != true {
			t.Fatalf("refund result %v", d)
		}
		msgs := box.messages()
		if len(msgs) != before+1 || !strings.Contains(msgs[len(msgs)-1], "To-Envelope: ada@example.com") || !strings.Contains(msgs[len(msgs)-1], "12.50") {
			t.Fatalf("mail %v", msgs[before:])
		}
	})
}

func TestWithoutSMTPTheRefundHappensAndSaysNoEmailWentOut(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		d := p.post("/refunds", map[string]any{"amount": 1000, "email_notification": true}, "").wantStatus(t, 200).data(t)
		if d["email_sent"] != false || num(d, "amount_refunded") != 1000 {
			t.Fatalf("refund result %v", d)
		}
	})
}
