package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/subscription"
)

func (c *Console) subscriptionRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/subscriptions", c.admin(c.subscriptions))
	mux.Handle("POST /admin/subscriptions/{id}/{action}", c.admin(c.subscriptionAction))
}

// subscriptionsView is a page of the shop's subscriptions, by status and customer, walked by
// cursor; Refused is the list's refusal of the page's query, shown in place of the list.
type subscriptionsView struct {
	List     *subscription.List
	Status   string
	Customer string
	Next     string
	Refused  string
}

// subscriptions lists the shop's subscriptions through List Subscriptions, the REST list's
// read: a status and a customer's platform id (exactly; REST's subscription_status and
// service_platform_customer_id), which htmx asks as they are chosen and typed.
func (c *Console) subscriptions(q *request) error {
	params := q.r.URL.Query()
	v := subscriptionsView{Status: params.Get("status"), Customer: strings.TrimSpace(params.Get("customer"))}
	query := subscription.ListQuery{Cursor: params.Get("after"), ExpandCustomer: true}
	if v.Status != "" {
		query.Statuses = []string{v.Status}
	}
	if v.Customer != "" {
		query.PlatformCustomerIDs = []string{v.Customer}
	}
	list, err := c.svc.Subscriptions.ListSubscriptions(q.ctx(), q.shop, query)
	if p, ok := problem.As(err); ok && p.Kind == problem.Invalid {
		v.List, v.Refused = &subscription.List{}, p.Message
		return q.render(http.StatusOK, subscriptionsPage(v))
	}
	if err != nil {
		return err
	}
	v.List = list
	if list.Pagination.Next != nil {
		v.Next = consoleLink(q.r, url.Values{"after": {*list.Pagination.Next}})
	}
	return q.render(http.StatusOK, subscriptionsPage(v))
}

// subscriptionActions are the console's actions on one subscription, by the path's last segment.
var subscriptionActions = map[string]struct {
	done string
	run  func(c *Console, q *request, id int) (*subscription.View, error)
}{
	"pause": {"Subscription paused.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.Pause(q.ctx(), q.shop, id)
	}},
	"resume": {"Subscription resumed.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.Resume(q.ctx(), q.shop, id)
	}},
	"skip": {"Next order skipped.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.SkipNext(q.ctx(), q.shop, id)
	}},
	"place": {"Order placed.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.PlaceNow(q.ctx(), q.shop, id)
	}},
}

func (c *Console) subscriptionAction(q *request) error {
	action, ok := subscriptionActions[q.r.PathValue("action")]
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if !ok || err != nil {
		return &problem.Error{Kind: problem.NotFound, Type: "admin.not_found", Message: "there is no such page"}
	}
	v, err := action.run(c, q, id)
	if err != nil {
		return err
	}
	msg := action.done
	if v.LastFailureReason != "" && v.CurrentRetries > 0 {
		msg += " Last failure: " + v.LastFailureReason
	}
	return q.redirect("/admin/subscriptions", msg)
}

func subscriptionTime(v *subscription.View) string {
	if v.NextOrderDatetime == nil {
		return "none"
	}
	return v.NextOrderDatetime.UTC().Format("2006-01-02 15:04 UTC")
}
